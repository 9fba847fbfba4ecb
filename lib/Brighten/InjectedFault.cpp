#include "Brighten/InjectedFault.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace hoist {
namespace {

/// `value` made wrong, or null for a type the hook does not know.
llvm::Value *wrongValue(llvm::IRBuilder<> &builder, llvm::Value *value) {
  llvm::Type *type = value->getType();
  if (type->isIntegerTy())
    return builder.CreateXor(value, llvm::ConstantInt::get(type, 1));
  if (type->isPointerTy())
    return builder.CreateGEP(builder.getInt8Ty(), value, builder.getInt64(1));
  if (type->isFloatingPointTy())
    return builder.CreateFAdd(value, llvm::ConstantFP::get(type, 1.0));
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    llvm::Value *lane = wrongValue(builder, builder.CreateExtractElement(value, uint64_t(0)));
    return lane ? builder.CreateInsertElement(value, lane, uint64_t(0)) : nullptr;
  }
  if (auto *record = llvm::dyn_cast<llvm::StructType>(type)) {
    llvm::Value *result = value;
    for (unsigned index = 0; index < record->getNumElements(); ++index) {
      llvm::Value *element = wrongValue(builder, builder.CreateExtractValue(value, index));
      if (!element)
        return nullptr;
      result = builder.CreateInsertValue(result, element, index);
    }
    return result;
  }
  return nullptr;
}

} // namespace

bool injectWrongResult(llvm::Function &function) {
  if (function.getReturnType()->isVoidTy())
    return false;
  std::vector<llvm::ReturnInst *> returns;
  for (llvm::BasicBlock &block : function)
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator()))
      returns.push_back(ret);
  bool changed = false;
  for (llvm::ReturnInst *ret : returns) {
    llvm::IRBuilder<> builder(ret);
    if (llvm::Value *wrong = wrongValue(builder, ret->getReturnValue())) {
      ret->setOperand(0, wrong);
      changed = true;
    }
  }
  return changed;
}

} // namespace hoist
