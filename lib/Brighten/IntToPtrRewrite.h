// What PromoteStack and ImageData share: each `inttoptr` of a function offered to a rewrite
// that may return the pointer replacing it.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace hoist {

/// Calls `pointerFor` with each inttoptr instruction of `function` and a builder placed before
/// it; a non-null result replaces the instruction (taking its name). Returns whether any did.
inline bool rewriteIntToPtrs(
    llvm::Function &function,
    llvm::function_ref<llvm::Value *(llvm::IntToPtrInst &, llvm::IRBuilder<> &)> pointerFor) {
  llvm::SmallVector<llvm::IntToPtrInst *> candidates;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(&instruction))
      candidates.push_back(cast);
  bool changed = false;
  for (llvm::IntToPtrInst *cast : candidates) {
    llvm::IRBuilder<> builder(cast);
    llvm::Value *pointer = pointerFor(*cast, builder);
    if (!pointer)
      continue;
    pointer->takeName(cast);
    cast->replaceAllUsesWith(pointer);
    cast->eraseFromParent();
    changed = true;
  }
  return changed;
}

} // namespace hoist
