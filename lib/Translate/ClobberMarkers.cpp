#include "Translate/ClobberMarkers.h"

#include "Arch/StateLayout.h"
#include "Translate/StatePointers.h"

#include <llvm/IR/Instructions.h>

namespace hoist {
namespace {

constexpr llvm::StringLiteral MarkerPrefix = "hoist.clobbered.";

/// `T hoist.clobbered.T(i32 register)`: reads and writes no memory, so it moves and merges
/// freely, but LLVM cannot know its value, so a store of it is a real write until
/// removeClobberMarkers. Each register has its own marker: with one value for all, MemCpyOpt
/// merges the stores into adjacent flags into a memset that removeClobberMarkers would not see.
llvm::Value *marker(llvm::IRBuilder<> &ir, llvm::Type *type, unsigned reg) {
  llvm::Module &module = *ir.GetInsertBlock()->getModule();
  std::string name;
  llvm::raw_string_ostream(name) << MarkerPrefix << *type;
  llvm::FunctionCallee callee =
      module.getOrInsertFunction(name, llvm::FunctionType::get(type, {ir.getInt32Ty()}, false));
  auto *function = llvm::cast<llvm::Function>(callee.getCallee());
  function->setDoesNotAccessMemory();
  function->setDoesNotThrow();
  function->setWillReturn();
  return ir.CreateCall(callee, {ir.getInt32(reg)}, "clobbered");
}

bool isMarker(const llvm::Function &function) {
  return function.isDeclaration() && function.getName().starts_with(MarkerPrefix);
}

} // namespace

bool isClobberMarker(const llvm::Value *value) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(value);
  return call && call->getCalledFunction() && isMarker(*call->getCalledFunction());
}

void storeClobberMarkers(llvm::IRBuilder<> &ir, llvm::Value *state) {
  llvm::StructType *type = getStateType(ir.getContext());
  const llvm::Align fieldAlignment{8};
  for (HoistStateField field : callerSavedFields()) {
    llvm::Type *fieldType = type->getElementType(field);
    llvm::Value *pointer = ir.CreateStructGEP(type, state, field);
    auto *array = llvm::dyn_cast<llvm::ArrayType>(fieldType);
    if (!array) {
      ir.CreateAlignedStore(marker(ir, fieldType, field), pointer, fieldAlignment);
      continue;
    }
    // One store per register: YMM as <4 x i64> (the lifter's whole-register access), ST as f80.
    llvm::Type *element = array->getElementType();
    if (auto *lanes = llvm::dyn_cast<llvm::ArrayType>(element))
      element = llvm::FixedVectorType::get(lanes->getElementType(), lanes->getNumElements());
    for (unsigned i = 0; i < array->getNumElements(); ++i)
      ir.CreateAlignedStore(marker(ir, element, HOIST_FIELD_COUNT * (i + 1) + field),
                            ir.CreateConstInBoundsGEP2_32(array, pointer, 0, i),
                            fieldAlignment);
  }
}

uint64_t removeClobberMarkers(llvm::Module &module) {
  uint64_t erased = 0;
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    if (!isMarker(function))
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(function.users())) {
      auto *call = llvm::cast<llvm::CallInst>(user);
      for (llvm::User *use : llvm::make_early_inc_range(call->users()))
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(use);
            store && store->getValueOperand() == call) {
          store->eraseFromParent();
          ++erased;
        }
      llvm::Type *type = call->getType();
      if (!call->use_empty())
        call->replaceAllUsesWith(
            type->isIntegerTy()
                ? static_cast<llvm::Value *>(
                      new llvm::FreezeInst(llvm::PoisonValue::get(type), "clobbered", call))
                : llvm::UndefValue::get(type));
      call->eraseFromParent();
    }
    function.eraseFromParent();
  }
  return erased;
}

} // namespace hoist
