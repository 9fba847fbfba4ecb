// Backward searches over the predecessors of a point in an explored function, shared by the
// jump-table matcher and the value analysis of indirect jmps: which instructions define a
// register's value there, on every path. Bounded by a number of blocks; no IR.
#pragma once

#include "Discover/FunctionExplorer.h"

#include <map>
#include <vector>

namespace hoist {

/// Block start -> the starts of the blocks with an edge to it.
using PredecessorMap = std::map<uint64_t, std::vector<uint64_t>>;

PredecessorMap predecessorMap(const ExploredFunction &function);

/// Whether `instr` writes the 64-bit general-purpose register `reg` (or a part of it). A call
/// writes the caller-saved registers; the callee keeps the others.
bool writesRegister(const Instr &instr, ZydisRegister reg);

/// One instruction that defines a register: `block->instrs[index]`.
struct Definition {
  const MachineBlock *block = nullptr;
  size_t index = 0;
  const Instr &instr() const { return *block->instrs[index]; }
};

struct ReachingDefinitions {
  std::vector<Definition> definitions; ///< every write that reaches, one per path end
  /// A path reaches the function's entry (or a block without predecessors) with no write:
  /// there the register holds what the caller left in it.
  bool fromEntry = false;
  bool budgetExhausted = false; ///< more than `budget` blocks would be searched
  bool complete() const { return !fromEntry && !budgetExhausted; }
};

/// The definitions of `reg` that reach instruction `position` of `block` (position may be
/// `block.instrs.size()`: the end of the block), found backwards over predecessors, searching
/// at most `budget` blocks.
ReachingDefinitions reachingDefinitions(const ExploredFunction &function,
                                        const PredecessorMap &predecessors,
                                        const MachineBlock &block, size_t position,
                                        ZydisRegister reg, unsigned budget);

} // namespace hoist
