#include "Brighten/PromoteStack.h"

#include "Brighten/IntToPtrRewrite.h"
#include "Brighten/LocalFrame.h"
#include "Passes/Passes.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PatternMatch.h>

namespace hoist {
namespace {

using namespace llvm::PatternMatch;

/// Bounds the walk through an address expression.
constexpr unsigned MaxAddressDepth = 8;

llvm::AllocaInst *findLocalStack(llvm::Function &function) {
  for (llvm::Instruction &instruction : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (alloca->getMetadata(StackMetadataKind))
        return alloca;
  return nullptr;
}

/// X such that `address` == ptrtoint(stack) + X, emitted before `at`; null if not found.
llvm::Value *offsetFromStack(llvm::Value *address, llvm::AllocaInst *stack,
                             llvm::IRBuilder<> &builder, unsigned depth) {
  if (depth > MaxAddressDepth)
    return nullptr;
  llvm::Value *pointer = nullptr;
  if (match(address, m_PtrToInt(m_Value(pointer)))) {
    // ptrtoint of the stack or of a constant offset into it (the entry RSP is one).
    const llvm::DataLayout &layout = stack->getDataLayout();
    llvm::APInt offset(64, 0);
    if (pointer->stripAndAccumulateConstantOffsets(layout, offset, true) != stack)
      return nullptr;
    return builder.getInt(offset);
  }
  llvm::Value *left = nullptr, *right = nullptr;
  bool isAdd = match(address, m_Add(m_Value(left), m_Value(right))) ||
               match(address, m_DisjointOr(m_Value(left), m_Value(right)));
  if (isAdd) {
    if (llvm::Value *offset = offsetFromStack(left, stack, builder, depth + 1))
      return builder.CreateAdd(offset, right);
    if (llvm::Value *offset = offsetFromStack(right, stack, builder, depth + 1))
      return builder.CreateAdd(left, offset);
    return nullptr;
  }
  if (match(address, m_Sub(m_Value(left), m_Value(right))))
    if (llvm::Value *offset = offsetFromStack(left, stack, builder, depth + 1))
      return builder.CreateSub(offset, right);
  return nullptr;
}

} // namespace

llvm::PreservedAnalyses PromoteStackPass::run(llvm::Function &function,
                                              llvm::FunctionAnalysisManager &) {
  llvm::AllocaInst *stack = findLocalStack(function);
  if (!stack)
    return llvm::PreservedAnalyses::all();
  uint64_t stackBytes = stack->getAllocationSize(function.getDataLayout())->getFixedValue();
  bool changed = rewriteIntToPtrs(
      function, [&](llvm::IntToPtrInst &cast, llvm::IRBuilder<> &builder) -> llvm::Value * {
        llvm::Value *offset = offsetFromStack(cast.getOperand(0), stack, builder, 0);
        if (!offset)
          return nullptr;
        if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(offset);
            constant && (constant->getSExtValue() < 0 ||
                         uint64_t(constant->getSExtValue()) >= stackBytes)) {
          function.addFnAttr(StackOutsideAttribute,
                             std::to_string(constant->getSExtValue() - int64_t(stackBytes)));
          return nullptr;
        }
        return builder.CreateGEP(builder.getInt8Ty(), stack, offset);
      });
  return preservedAfter(changed);
}

} // namespace hoist
