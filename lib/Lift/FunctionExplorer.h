// Finds the machine basic blocks of one function before it is lifted: decode from the entry,
// follow direct branches, stop at returns, indirect jumps and traps. Calls fall through.
// Knowing every block and edge up front lets the lifter seal each block as soon as its
// predecessors are lifted, so few placeholder phis are ever made.
#pragma once

#include "Lift/InstructionCache.h"
#include "hoist/Options.h"

#include <map>
#include <vector>

namespace hoist {

class DiagnosticSink;

struct MachineBlock {
  enum class End {
    Terminator,    ///< ends in a branch, return or trap; successors as the semantic decides
    Fallthrough,   ///< runs into the next block
    Invalid,       ///< the bytes at `endAddress` do not decode
    LeavesCode,    ///< the next address holds no executable bytes
    Budget,        ///< the function's instruction budget ran out
  };
  uint64_t start = 0;
  std::vector<const Instr *> instrs;
  End end = End::Fallthrough;
  uint64_t endAddress = 0;              ///< address after the last instruction
  std::vector<uint64_t> successors;     ///< start addresses of blocks of this function
};

struct ExploredFunction {
  uint64_t entry = 0;
  std::map<uint64_t, MachineBlock> blocks;   ///< by start address
};

/// The addresses control may go to after `instr`, when it ends a block; fallthrough excluded.
/// Returns false when `instr` does not end a block.
bool blockEndTargets(const Instr &instr, std::vector<uint64_t> &targets);

ExploredFunction exploreFunction(InstructionCache &cache, uint64_t entry,
                                 const LiftOptions &options, DiagnosticSink &diagnostics);

} // namespace hoist
