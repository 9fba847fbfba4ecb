#include "Translate/BlockDataflow.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>

#include <algorithm>
#include <vector>

namespace hoist {

bool solveBlockDataflow(llvm::Function &function, FlowDirection direction,
                        llvm::function_ref<bool(llvm::BasicBlock &)> update, unsigned maxRounds) {
  llvm::ReversePostOrderTraversal<llvm::Function *> reversePostOrder(&function);
  std::vector<llvm::BasicBlock *> order(reversePostOrder.begin(), reversePostOrder.end());
  if (direction == FlowDirection::Backward)
    std::reverse(order.begin(), order.end());
  for (unsigned round = 0; round < maxRounds; ++round) {
    bool changed = false;
    for (llvm::BasicBlock *block : order)
      changed |= update(*block);
    if (!changed)
      return true;
  }
  return false;
}

} // namespace hoist
