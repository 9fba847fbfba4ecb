#include "Brighten/InvariantStackGuard.h"

#include "Brighten/FoldNanPropagation.h"
#include "Brighten/StackProtector.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

namespace hoist {

llvm::PreservedAnalyses InvariantStackGuardPass::run(llvm::Function &function,
                                                     llvm::FunctionAnalysisManager &) {
  if (!function.hasFnAttribute(BrightenedAttribute))
    return llvm::PreservedAnalyses::all();
  bool changed = false;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    if (!load || load->getMetadata(llvm::LLVMContext::MD_invariant_load) ||
        load->isVolatile() || !loadsTheThreadsStackGuard(*load))
      continue;
    load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(function.getContext(), {}));
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace hoist
