#include "Brighten/ExitingErrorCalls.h"

#include "Brighten/FoldNanPropagation.h"
#include "Discover/NoReturn.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace hoist {

llvm::PreservedAnalyses ExitingErrorCallsPass::run(llvm::Function &function,
                                                   llvm::FunctionAnalysisManager &) {
  bool changed = false;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    if (!callee || !callee->isDeclaration() || callee->hasFnAttribute(BrightenedAttribute) ||
        callee->hasFnAttribute("hoist-library") ||   // a DLL's `error` is another function
        call->doesNotReturn() || call->arg_size() == 0 ||
        !isNoReturnWhenStatusNonzeroName(callee->getName()))
      continue;
    auto *status = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    if (!status || status->isZero())
      continue;
    call->setDoesNotReturn();
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace hoist
