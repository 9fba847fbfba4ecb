#include "Discover/FunctionDiscovery.h"

#include <algorithm>

#include "Discover/CodePointers.h"
#include "Discover/IndirectJumpAnalysis.h"
#include "Discover/JumpTableMatcher.h"
#include "Discover/NoReturn.h"
#include "Discover/PathSearch.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"

namespace hoist {
namespace {

bool isIndirectJump(const MachineBlock &block) {
  if (block.end != MachineBlock::End::Terminator || block.instrs.empty())
    return false;
  const Instr &last = *block.instrs.back();
  return last.mnemonic == ZYDIS_MNEMONIC_JMP && !last.op(0).isImm();
}

std::vector<CallSite> collectCalls(const Image &image, const ExploredFunction &function) {
  std::vector<CallSite> calls;
  for (const auto &[start, block] : function.blocks)
    for (const Instr *instr : block.instrs) {
      if (instr->category != ZYDIS_CATEGORY_CALL)
        continue;
      CallSite call;
      call.at = instr->address;
      bool throughSlot = false;
      if (std::optional<uint64_t> target = directTarget(*instr, &throughSlot)) {
        if (throughSlot) {
          if (const Import *import = image.importAtSlot(*target))
            call.import = import->name;
        } else {
          call.target = *target;
          if (const Import *import = image.importAtStub(*target))
            call.import = import->name;
        }
      }
      call.noreturn = block.end == MachineBlock::End::NoReturnCall && instr == block.instrs.back();
      calls.push_back(std::move(call));
    }
  return calls;
}

/// The functions the indirect calls of `function` call through an address its code takes: a
/// call through a register or a RIP-relative slot (not an import's) whose target the value
/// analysis finds constant, where a function may start. A call through a pointer loaded from
/// an object (`call [rax+0x10]`) is left alone: it is never constant.
std::vector<uint64_t> calledThroughTargets(const Image &image, InstructionCache &cache,
                                           const ExploredFunction &function,
                                           const LiftOptions &options) {
  std::set<uint64_t> targets;
  for (const auto &[start, block] : function.blocks)
    for (size_t i = 0; i < block.instrs.size(); ++i) {
      const Instr &call = *block.instrs[i];
      if (call.category != ZYDIS_CATEGORY_CALL || call.explicitCount == 0)
        continue;
      const Operand &operand = call.op(0);
      bool throughSlot = false;
      std::optional<uint64_t> slot = directTarget(call, &throughSlot);
      bool viaRegister = operand.isReg();
      bool viaOwnSlot = slot && throughSlot && !image.importAtSlot(*slot);
      if (!viaRegister && !viaOwnSlot)
        continue;
      IndirectJumpValue value = analyzeIndirectCall(image, cache, function, block, i, options);
      if (value.kind == IndirectJumpValue::Kind::Constant)
        for (uint64_t target : value.targets)
          if (mayStartFunction(image, target))
            targets.insert(target);
    }
  return {targets.begin(), targets.end()};
}

/// Every way out of the function is a noreturn call, a trap (ud2, hlt) or a jmp through the
/// slot of a noreturn import (the `jmp [__imp_exit]` thunk of a stripped mingw binary, which
/// no symbol names as the import's stub).
bool allExitsNoReturn(const DiscoveredFunction &function) {
  bool importJumpsNoReturn = std::all_of(function.importJumps.begin(),
                                         function.importJumps.end(),
                                         [](const Import &import) {
                                           return isKnownNoReturnImport(import.name,
                                                                        import.library);
                                         });
  if (function.explored.budgetExhausted || !function.unresolvedJumps.empty() ||
      !function.tailCalls.empty() || !importJumpsNoReturn)
    return false;
  for (const auto &[start, block] : function.explored.blocks) {
    switch (block.end) {
    case MachineBlock::End::NoReturnCall:
    case MachineBlock::End::Fallthrough:
      continue;
    case MachineBlock::End::Terminator: {
      if (!block.successors.empty() || block.instrs.empty())
        continue;
      ZydisMnemonic last = block.instrs.back()->mnemonic;
      if (last == ZYDIS_MNEMONIC_UD2 || last == ZYDIS_MNEMONIC_HLT)
        continue;
      // With no unresolved jmp and no tail call, an indirect jmp without successors is one
      // through an import's slot, and those are all noreturn here.
      if (isIndirectJump(block) && !function.importJumps.empty())
        continue;
      return false;
    }
    default:
      return false;
    }
  }
  return true;
}

/// Whether the call `instrs[call]` passes a nonzero constant as its first argument: the last
/// write of rdi before it in its block is `mov edi, imm` (or `mov rdi, imm`) with imm != 0.
bool passesNonzeroStatus(const std::vector<const Instr *> &instrs, size_t call) {
  for (size_t i = call; i-- > 0;) {
    const Instr &instr = *instrs[i];
    if (!writesRegister(instr, ZYDIS_REGISTER_RDI))
      continue;
    const Operand &dst = instr.op(0), &src = instr.op(1);
    return instr.mnemonic == ZYDIS_MNEMONIC_MOV && dst.isReg() && dst.bits >= 32 &&
           src.isImm() && (dst.bits == 32 ? (src.imm & 0xffffffffu) : src.imm) != 0;
  }
  return false;
}

/// Adds to `exitCalls` the calls of `function` to a callee in `callees` (error(),
/// error_at_line()) that pass a nonzero status, so never return. Returns whether any was new.
/// Decided on the blocks of the round: a path that joins between the status and the call
/// splits the block, and the status is then not seen.
bool findStatusExits(const ExploredFunction &function, const std::set<uint64_t> &callees,
                     std::set<uint64_t> &exitCalls) {
  bool found = false;
  for (const auto &[start, block] : function.blocks)
    for (size_t i = 0; i < block.instrs.size(); ++i) {
      const Instr &instr = *block.instrs[i];
      if (instr.category != ZYDIS_CATEGORY_CALL || exitCalls.count(instr.address))
        continue;
      std::optional<uint64_t> callee = directTarget(instr);
      if (callee && callees.count(*callee) && passesNonzeroStatus(block.instrs, i))
        found |= exitCalls.insert(instr.address).second;
    }
  return found;
}

/// Whether `target`, reached from a jump at `jump`, cannot be code of the function at `entry`:
/// below the entry, or with another known function's start between the jump and the target
/// (a function's code is one stretch, but for the parts with unwinding ranges of their own).
/// A jump below the entry is in code the function ran into (another function's, reached by a
/// jmp not yet known as a tail call): there, being below the entry says nothing.
bool outsideOwnCode(uint64_t entry, uint64_t jump, uint64_t target, const ExploreHints &hints) {
  if (target < entry && jump >= entry)
    return true;
  if (!hints.functionStarts)
    return false;
  auto between = hints.functionStarts->upper_bound(std::min(jump, target));
  return between != hints.functionStarts->end() && *between < std::max(jump, target);
}

} // namespace

DiscoveredFunction discoverFunction(const Image &image, InstructionCache &cache, uint64_t entry,
                                    const LiftOptions &options, DiagnosticSink &diagnostics,
                                    ExploreHints hints) {
  DiscoveredFunction result;
  JumpTableMap tables;
  hints.jumpTables = &tables;
  // Tables whose entries are other functions' starts: an indirect tail call through a table of
  // function pointers (`jmp [handlers+rax*8]`), not a switch inside this function.
  JumpTableMap callTables;
  // What the value analysis found for the jmps the matcher could not resolve.
  std::map<uint64_t, uint64_t> importSlotJumps;
  std::map<uint64_t, UnresolvedJump> reasons;
  // Whether the targets of a table are other functions' code rather than this function's:
  // each is another function's start or, without unwinding tables, where the handlers' starts
  // may not be known yet, outside this function's own stretch of code. One target that is
  // another function's start is not enough: a case label may be the start of the function's
  // own `.cold` part, which has an unwind entry of its own (coreutils' od).
  auto callsFunctions = [&](uint64_t jump, const JumpTable &table) {
    return std::all_of(table.targets.begin(), table.targets.end(), [&](uint64_t target) {
      return (target != entry && hints.functionStarts && hints.functionStarts->count(target)) ||
             outsideOwnCode(entry, jump, target, hints);
    });
  };
  // Registers a table found for `jump`; returns whether exploration must run again. Sets only
  // grow: a table sized by reaching constants, or a computed jump's set of targets, is
  // replaced by a larger one. A table that a compare bounds replaces one sized by constants,
  // larger or not: the constants were those of the ways in known then, before the loop's
  // other ways in, past its range check, were found (diffutils' `get_funky_string` at clang-19
  // -O2: the entry jumps into the loop below the check with the state 0).
  auto record = [&](uint64_t jump, JumpTable table) {
    if (auto known = tables.find(jump); known != tables.end()) {
      bool bounded = known->second.bySetOfValues() && !table.bySetOfValues() &&
                     table.shape != JumpTable::Shape::Computed;
      if (!bounded && table.targets.size() <= known->second.targets.size())
        return false;
      known->second = std::move(table);
      return true;
    }
    if (callsFunctions(jump, table)) {
      callTables.emplace(jump, std::move(table));
      return false;
    }
    tables.emplace(jump, std::move(table));
    return true;
  };
  // Calls of error() with a nonzero status: they end their block.
  std::set<uint64_t> exitCalls;
  hints.noreturnCallSites = &exitCalls;
  // Exploration only warns once, in the final round.
  DiagnosticSink quiet;
  for (unsigned round = 0;; ++round) {
    result.rounds = round + 1;
    result.explored = exploreFunction(cache, entry, options, quiet, hints);
    if (round + 1 >= options.maxDiscoveryRounds || options.pastDeadline())
      break;
    bool changed = hints.noreturnWhenStatusNonzero &&
                   findStatusExits(result.explored, *hints.noreturnWhenStatusNonzero, exitCalls);
    std::vector<const MachineBlock *> unmatched;
    for (const auto &[start, block] : result.explored.blocks) {
      if (!isIndirectJump(block))   // also rules out a block without instructions
        continue;
      uint64_t jump = block.instrs.back()->address;
      if (callTables.count(jump) || importSlotJumps.count(jump))
        continue;
      auto known = tables.find(jump);
      bool computed = known != tables.end() && known->second.shape == JumpTable::Shape::Computed;
      if (known != tables.end() && !known->second.bySetOfValues() && !computed)
        continue;
      if (computed) {
        unmatched.push_back(&block);
        continue;
      }
      if (std::optional<JumpTable> table =
              matchJumpTable(image, cache, result.explored, block, options, hints.extentEnd))
        changed |= record(jump, std::move(*table));
      else if (known == tables.end())
        unmatched.push_back(&block);
    }
    // The escalation step, only when the cheap matchers found nothing new this round: the
    // value analysis of the jmps they could not resolve (and of computed jumps, whose sets of
    // targets may grow as more of the function is found).
    if (!changed)
      for (const MachineBlock *block : unmatched) {
        uint64_t jump = block->instrs.back()->address;
        IndirectJumpValue value =
            analyzeIndirectJump(image, cache, result.explored, *block, options);
        switch (value.kind) {
        case IndirectJumpValue::Kind::Unresolved:
          reasons[jump] = {jump, value.reason, value.computed};
          break;
        case IndirectJumpValue::Kind::Import:
          importSlotJumps[jump] = value.importSlot;
          break;
        case IndirectJumpValue::Kind::Constant: {
          JumpTable table;
          table.jump = jump;
          table.shape = JumpTable::Shape::Computed;
          table.targets = std::move(value.targets);
          changed |= record(jump, std::move(table));
          break;
        }
        }
      }
    if (!changed)
      break;
  }
  if (result.explored.budgetExhausted)
    reportExplorationBudget(diagnostics, entry, result.explored.pastDeadline);
  for (const auto &[start, block] : result.explored.blocks) {
    if (!isIndirectJump(block)) {
      if (block.end == MachineBlock::End::TailCall && !block.instrs.empty())
        if (std::optional<uint64_t> target = directTarget(*block.instrs.back()))
          result.tailCalls.push_back(*target);
      continue;
    }
    uint64_t jump = block.instrs.back()->address;
    if (auto call = callTables.find(jump); call != callTables.end()) {
      for (uint64_t target : call->second.distinctTargets())
        result.tailCalls.push_back(target);
      if (call->second.shape == JumpTable::Shape::Computed)
        result.computedJumps.push_back({jump, call->second.targets, {}});
      result.explored.tailCallTables.insert(*call);
      continue;
    }
    if (auto table = result.explored.jumpTables.find(jump);
        table != result.explored.jumpTables.end()) {
      if (table->second.shape == JumpTable::Shape::Computed)
        result.computedJumps.push_back({jump, table->second.targets, {}});
      continue;
    }
    // `jmp [slot]` of an import (a PE thunk, an ELF PLT entry) is a tail call to the import,
    // and so is a jmp to a value loaded from the slot (`mov rax, [rip+GOT]; jmp rax`).
    bool throughSlot = false;
    std::optional<uint64_t> slot = directTarget(*block.instrs.back(), &throughSlot);
    if (slot && throughSlot && image.importAtSlot(*slot)) {
      result.importJumps.push_back(*image.importAtSlot(*slot));
    } else if (auto loaded = importSlotJumps.find(jump); loaded != importSlotJumps.end()) {
      const Import &import = *image.importAtSlot(loaded->second);
      result.importJumps.push_back(import);
      result.computedJumps.push_back({jump, {}, import.name});
      result.explored.importSlotJumps.insert(*loaded);
    } else {
      auto reason = reasons.find(jump);
      result.unresolvedJumps.push_back(
          reason != reasons.end()
              ? reason->second
              : UnresolvedJump{jump, "not analysed: the function's round budget ran out", true});
    }
  }
  result.calls = collectCalls(image, result.explored);
  result.calledThrough = calledThroughTargets(image, cache, result.explored, options);
  result.noreturn = allExitsNoReturn(result);
  return result;
}

} // namespace hoist
