// The loop that substitution and MBA encoding share: the operators to rewrite are collected
// first, so that the new instructions are not rewritten again.
#include "Obfuscator.h"

#include <llvm/IR/InstIterator.h>

#include <vector>

namespace obfuscator {

bool rewriteIntegerOperators(
    llvm::Function &function,
    const std::function<llvm::Value *(llvm::IRBuilder<> &, llvm::BinaryOperator &)> &rewrite) {
  std::vector<llvm::BinaryOperator *> originals;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction))
      if (binary->getType()->isIntegerTy() && !binary->getType()->isIntegerTy(1))
        originals.push_back(binary);
  bool changed = false;
  for (llvm::BinaryOperator *binary : originals) {
    llvm::IRBuilder<> builder(binary);
    llvm::Value *replacement = rewrite(builder, *binary);
    if (!replacement)
      continue;
    replacement->takeName(binary);
    binary->replaceAllUsesWith(replacement);
    binary->eraseFromParent();
    changed = true;
  }
  return changed;
}

} // namespace obfuscator
