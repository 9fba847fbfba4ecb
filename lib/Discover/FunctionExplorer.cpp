#include "Discover/FunctionExplorer.h"

#include "Semantics/Semantics.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"

#include <llvm/ADT/DenseSet.h>

#include <set>

namespace hoist {

bool blockEndTargets(const Instr &instr, std::vector<uint64_t> &targets) {
  // Without a semantic the instruction is lifted as __hoist_unsupported and lifting goes on
  // after it, so for the block structure it falls through.
  if (!findSemantic(instr))
    return false;
  const Operand &first = instr.op(0);
  switch (instr.category) {
  case ZYDIS_CATEGORY_COND_BR:
    if (first.isImm() && first.immRelative)
      targets.push_back(instr.next() + first.imm);
    targets.push_back(instr.next());
    return true;
  case ZYDIS_CATEGORY_UNCOND_BR:
    if (first.isImm() && first.immRelative)
      targets.push_back(instr.next() + first.imm);
    return true;
  case ZYDIS_CATEGORY_RET:
    return true;
  case ZYDIS_CATEGORY_STRINGOP:
    // A repeated string instruction runs one iteration and then executes itself again (RIP
    // unchanged) until the count runs out: a loop onto its own address.
    if (!instr.hasRepeatPrefix())
      return false;
    targets.push_back(instr.address);
    targets.push_back(instr.next());
    return true;
  default:
    break;
  }
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_UD2:
  case ZYDIS_MNEMONIC_INT3:
  case ZYDIS_MNEMONIC_HLT:
    return true;
  default:
    return false;
  }
}

std::optional<uint64_t> directTarget(const Instr &instr, bool *throughSlot) {
  if (throughSlot)
    *throughSlot = false;
  const Operand &first = instr.op(0);
  if (first.isImm() && first.immRelative)
    return instr.next() + first.imm;
  if (first.isMem() && first.base == ZYDIS_REGISTER_RIP && first.index == ZYDIS_REGISTER_NONE) {
    if (throughSlot)
      *throughSlot = true;
    return instr.next() + first.disp;
  }
  return std::nullopt;
}

void reportExplorationBudget(DiagnosticSink &diagnostics, uint64_t entry, bool pastDeadline) {
  diagnostics.warning("budget-exhausted", entry,
                      "function " + formatAddress(entry) +
                          (pastDeadline ? ": time budget (--timeout) exhausted"
                                        : ": instruction or block budget exhausted") +
                          "; the rest is lifted as exits to __hoist_jmp");
}

namespace {

/// How a block ends at `instr` given what the hints know, or nullopt when it does not end there.
/// `targets` receives the in-function successors other than the fallthrough.
std::optional<MachineBlock::End> endAt(const Instr &instr, uint64_t entry,
                                       const ExploreHints &hints, std::vector<uint64_t> &targets) {
  if (instr.category == ZYDIS_CATEGORY_CALL && findSemantic(instr)) {
    if (hints.noreturnCallSites && hints.noreturnCallSites->count(instr.address))
      return MachineBlock::End::NoReturnCall;
    if (std::optional<uint64_t> callee = directTarget(instr))
      if (hints.noreturnCallees && hints.noreturnCallees->count(*callee))
        return MachineBlock::End::NoReturnCall;
    if (hints.unwindEnd && instr.next() == hints.unwindEnd)
      return MachineBlock::End::NoReturnCall;
    // Nor where another function starts right after the call: without unwind tables, how a
    // call of a noreturn function pointer ends its caller (obstack's failure handler).
    if (hints.functionStarts && instr.next() != entry && hints.functionStarts->count(instr.next()))
      return MachineBlock::End::NoReturnCall;
  }
  if (instr.category == ZYDIS_CATEGORY_UNCOND_BR && findSemantic(instr)) {
    const Operand &first = instr.op(0);
    if (first.isImm() && first.immRelative && hints.functionStarts) {
      uint64_t target = instr.next() + first.imm;
      if (target != entry && hints.functionStarts->count(target))
        return MachineBlock::End::TailCall;
    }
    if (!first.isImm() && hints.jumpTables) {
      auto table = hints.jumpTables->find(instr.address);
      if (table != hints.jumpTables->end()) {
        for (uint64_t target : table->second.distinctTargets())
          targets.push_back(target);
        return MachineBlock::End::Terminator;
      }
    }
  }
  if (blockEndTargets(instr, targets))
    return MachineBlock::End::Terminator;
  return std::nullopt;
}

/// Pass 1: every address that starts a block (leaders) and every instruction reached.
struct LeaderScan {
  LeaderScan(InstructionCache &cache, const LiftOptions &options, const ExploreHints &hints)
      : cache(cache), options(options), hints(hints) {}

  InstructionCache &cache;
  const LiftOptions &options;
  const ExploreHints &hints;
  std::set<uint64_t> leaders;
  llvm::DenseSet<uint64_t> visited;
  uint64_t instructions = 0;
  bool budgetExhausted = false;
  bool pastDeadline = false;

  /// Instructions decoded between two looks at the clock.
  static constexpr uint64_t DeadlineCheckInterval = 1024;

  void run(uint64_t entry) {
    std::vector<uint64_t> worklist{entry};
    leaders.insert(entry);
    std::vector<uint64_t> targets;
    while (!worklist.empty()) {
      uint64_t address = worklist.back();
      worklist.pop_back();
      while (true) {
        if (InstructionCache::isReservedAddress(address))
          break;
        if (!visited.insert(address).second) {
          leaders.insert(address);   // two paths meet here
          break;
        }
        const DecodedAt *decoded = cache.at(address);
        if (!decoded || decoded->status != DecodeStatus::Ok)
          break;
        // An instruction over a budget is not the function's: pass 2 ends its block before it.
        if (++instructions > options.maxInstructionsPerFunction) {
          budgetExhausted = true;
          visited.erase(address);
          return;
        }
        if (instructions % DeadlineCheckInterval == 0 && options.pastDeadline()) {
          budgetExhausted = pastDeadline = true;
          visited.erase(address);
          return;
        }
        const Instr &instr = decoded->instr;
        targets.clear();
        if (endAt(instr, entry, hints, targets)) {
          for (uint64_t target : targets)
            if (cache.at(target) && leaders.size() < options.maxBlocksPerFunction &&
                leaders.insert(target).second)
              worklist.push_back(target);
          break;
        }
        address = instr.next();
      }
    }
  }
};

} // namespace

ExploredFunction exploreFunction(InstructionCache &cache, uint64_t entry,
                                 const LiftOptions &options, DiagnosticSink &diagnostics,
                                 const ExploreHints &hints) {
  LeaderScan scan(cache, options, hints);
  scan.run(entry);
  if (scan.budgetExhausted || scan.leaders.size() >= options.maxBlocksPerFunction)
    reportExplorationBudget(diagnostics, entry, scan.pastDeadline);

  // Pass 2: each leader's block runs until it ends or the next instruction starts a block.
  ExploredFunction function;
  function.entry = entry;
  function.budgetExhausted =
      scan.budgetExhausted || scan.leaders.size() >= options.maxBlocksPerFunction;
  function.pastDeadline = scan.pastDeadline;
  std::vector<uint64_t> targets;
  for (uint64_t leader : scan.leaders) {
    MachineBlock block;
    block.start = leader;
    uint64_t address = leader;
    while (true) {
      if (address != leader && scan.leaders.count(address)) {
        block.end = MachineBlock::End::Fallthrough;
        block.successors.push_back(address);
        break;
      }
      if (!scan.visited.contains(address)) {
        block.end = MachineBlock::End::Budget;
        break;
      }
      const DecodedAt *decoded = cache.at(address);
      if (!decoded) {
        block.end = MachineBlock::End::LeavesCode;
        break;
      }
      if (decoded->status != DecodeStatus::Ok) {
        block.end = MachineBlock::End::Invalid;
        break;
      }
      const Instr &instr = decoded->instr;
      block.instrs.push_back(&instr);
      address = instr.next();
      targets.clear();
      if (std::optional<MachineBlock::End> end = endAt(instr, entry, hints, targets)) {
        block.end = *end;
        if (hints.jumpTables)
          if (auto table = hints.jumpTables->find(instr.address);
              table != hints.jumpTables->end() && *end == MachineBlock::End::Terminator)
            function.jumpTables.insert(*table);
        // Each successor once, in the order found. A set, not a search of the list so far: a
        // jump table's tens of thousands of targets would make that quadratic.
        llvm::SmallDenseSet<uint64_t, 4> added;
        for (uint64_t target : targets)
          if (scan.leaders.count(target) && !InstructionCache::isReservedAddress(target) &&
              added.insert(target).second)
            block.successors.push_back(target);
        break;
      }
    }
    block.endAddress = address;
    function.blocks.emplace(leader, std::move(block));
  }
  return function;
}

} // namespace hoist
