#include "Discover/PathSearch.h"

#include "Arch/Registers.h"

#include <set>

namespace hoist {

PredecessorMap predecessorMap(const ExploredFunction &function) {
  PredecessorMap predecessors;
  for (const auto &[start, block] : function.blocks)
    for (uint64_t successor : block.successors)
      predecessors[successor].push_back(start);
  return predecessors;
}

bool writesRegister(const Instr &instr, ZydisRegister reg) {
  if (instr.category == ZYDIS_CATEGORY_CALL && !isSysVCalleeSaved(reg))
    return true;
  for (unsigned i = 0; i < instr.operandCount; ++i)
    if (instr.op(i).isReg() && instr.op(i).written &&
        ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, instr.op(i).reg) == reg)
      return true;
  return false;
}

ReachingDefinitions reachingDefinitions(const ExploredFunction &function,
                                        const PredecessorMap &predecessors,
                                        const MachineBlock &block, size_t position,
                                        ZydisRegister reg, unsigned budget) {
  ReachingDefinitions result;
  // A write earlier in the block itself is the one that reaches `position`.
  for (size_t i = std::min(position, block.instrs.size()); i-- > 0;)
    if (writesRegister(*block.instrs[i], reg)) {
      result.definitions.push_back({&block, i});
      return result;
    }
  std::vector<uint64_t> worklist;
  std::set<uint64_t> seen;
  // The value at the start of `start` flows in from its predecessors.
  auto flowInto = [&](uint64_t start) {
    auto it = predecessors.find(start);
    if (start == function.entry || it == predecessors.end()) {
      result.fromEntry = true; // the caller's value reaches here
      return;
    }
    for (uint64_t pred : it->second)
      if (seen.insert(pred).second) {
        if (seen.size() > budget) {
          result.budgetExhausted = true;
          return;
        }
        worklist.push_back(pred);
      }
  };
  flowInto(block.start);
  while (!worklist.empty() && !result.budgetExhausted) {
    const MachineBlock &current = function.blocks.at(worklist.back());
    worklist.pop_back();
    // The block's last write of `reg`, if any, is the definition that reaches its end.
    bool defined = false;
    for (size_t i = current.instrs.size(); i-- > 0 && !defined;)
      if (writesRegister(*current.instrs[i], reg)) {
        result.definitions.push_back({&current, i});
        defined = true;
      }
    if (!defined)
      flowInto(current.start);
  }
  return result;
}

} // namespace hoist
