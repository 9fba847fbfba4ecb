// Finds the machine basic blocks of one function before it is lifted: decode from the entry,
// follow direct branches and resolved jump tables, stop at returns, other indirect jumps and
// traps. Calls fall through, except calls to known noreturn callees; a direct jmp to another
// known function start is a tail call and is not followed.
// Knowing every block and edge up front lets the lifter seal each block as soon as its
// predecessors are lifted, so few placeholder phis are ever made.
#pragma once

#include "Discover/InstructionCache.h"
#include "Discover/JumpTable.h"
#include "hoist/Options.h"

#include <map>
#include <optional>
#include <set>
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
    NoReturnCall,  ///< ends in a call to a callee that never returns: no successors
    TailCall,      ///< ends in a direct jmp to another function's start: no successors
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
  JumpTableMap jumpTables;                   ///< the resolved tables whose jmp was reached
  /// Set by discoverFunction for the lifter: indirect jmps whose targets are all other
  /// functions' entries (tables of function pointers, constant targets), lifted as tail calls,
  /// and jmps whose target is loaded from an import's slot (jmp -> the slot's address).
  JumpTableMap tailCallTables;
  std::map<uint64_t, uint64_t> importSlotJumps;
  bool budgetExhausted = false;
  bool pastDeadline = false;   ///< exploration stopped because LiftOptions::deadline passed
};

/// What is known about the program beyond the function being explored. Every pointer may be
/// null; without hints exploration is as the lifter always did it.
struct ExploreHints {
  const JumpTableMap *jumpTables = nullptr;
  /// Call targets (direct call addresses, or the slot of a `call [slot]`) that never return.
  const std::set<uint64_t> *noreturnCallees = nullptr;
  /// Call targets that never return when their first argument (edi) is not zero: error().
  const std::set<uint64_t> *noreturnWhenStatusNonzero = nullptr;
  /// Calls (by their address) found not to return, whatever their callee does elsewhere: the
  /// calls of error() with a nonzero status. Set by discoverFunction.
  const std::set<uint64_t> *noreturnCallSites = nullptr;
  /// Known function starts: a direct jmp to one (other than the entry) is a tail call.
  const std::set<uint64_t> *functionStarts = nullptr;
  /// The end of the function's unwind range (.eh_frame, .pdata), or 0 when unknown.
  uint64_t extentEnd = 0;
  /// The same end where the unwind tables give it (not guessed from the next start): a call
  /// that ends the range has no code of the function after it to return to, as a compiler
  /// lays out a call of a noreturn function pointer (obstack's failure handler).
  uint64_t unwindEnd = 0;
};

/// The address a call or jmp at `instr` goes to when it is known without running it: the
/// immediate target, or for `call/jmp [rip+slot]` the slot address (with `throughSlot` set).
std::optional<uint64_t> directTarget(const Instr &instr, bool *throughSlot = nullptr);

/// The addresses control may go to after `instr`, when it ends a block; fallthrough excluded.
/// Returns false when `instr` does not end a block.
bool blockEndTargets(const Instr &instr, std::vector<uint64_t> &targets);

/// The warning for a function whose exploration stopped at a budget (`pastDeadline`: time).
void reportExplorationBudget(DiagnosticSink &diagnostics, uint64_t entry, bool pastDeadline);

ExploredFunction exploreFunction(InstructionCache &cache, uint64_t entry,
                                 const LiftOptions &options, DiagnosticSink &diagnostics,
                                 const ExploreHints &hints = {});

} // namespace hoist
