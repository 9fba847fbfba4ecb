#include "Translate/StatePointers.h"

#include "Arch/StateLayout.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace hoist {

StateLocation locateInState(llvm::Value *pointer, const llvm::Value *state,
                            const llvm::DataLayout &layout) {
  StateLocation location;
  int64_t offset = 0;
  if (llvm::GetPointerBaseWithConstantOffset(pointer, offset, layout) == state) {
    location.kind = StateLocation::Field;
    location.offset = offset;
    return location;
  }
  llvm::SmallVector<const llvm::Value *, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects);
  for (const llvm::Value *object : objects)
    if (object == state)
      location.kind = StateLocation::Unknown;
  return location;
}

llvm::Value *atomicPointerOperand(llvm::Instruction &instruction) {
  if (auto *update = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction))
    return update->getPointerOperand();
  if (auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction))
    return exchange->getPointerOperand();
  return nullptr;
}

bool callReachesState(llvm::CallBase &call, const llvm::Value *state,
                      const llvm::DataLayout &layout) {
  for (llvm::Value *argument : call.args())
    if (argument->getType()->isPointerTy() &&
        locateInState(argument, state, layout).kind != StateLocation::None)
      return true;
  return false;
}

llvm::ArrayRef<HoistStateField> callerSavedFields() {
  static const HoistStateField fields[] = {
      HOIST_FIELD_RAX, HOIST_FIELD_RCX, HOIST_FIELD_RDX, HOIST_FIELD_RSI, HOIST_FIELD_RDI,
      HOIST_FIELD_R8,  HOIST_FIELD_R9,  HOIST_FIELD_R10, HOIST_FIELD_R11, HOIST_FIELD_CF,
      HOIST_FIELD_PF,  HOIST_FIELD_AF,  HOIST_FIELD_ZF,  HOIST_FIELD_SF,  HOIST_FIELD_OF,
      HOIST_FIELD_YMM, HOIST_FIELD_ST};
  return fields;
}

bool isLiftedFunction(const llvm::Function &function) {
  return !function.isDeclaration() && function.arg_size() == 2 &&
         function.getReturnType()->isVoidTy() && function.getArg(0)->getType()->isPointerTy() &&
         function.hasParamAttribute(0, llvm::Attribute::NoAlias) &&
         function.hasParamAttribute(0, llvm::Attribute::NoCapture);
}

} // namespace hoist
