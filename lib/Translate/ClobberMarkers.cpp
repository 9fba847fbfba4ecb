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
  const llvm::DataLayout &layout = ir.GetInsertBlock()->getModule()->getDataLayout();
  for (HoistStateField field : callerSavedFields()) {
    if (field == HOIST_FIELD_RAX || field == HOIST_FIELD_RDX)
      continue;   // the import body stores the results there next
    llvm::Type *fieldType = type->getElementType(field);
    // An array (the 16 vector, the 8 x87 registers) is overwritten by one vector store: fewer
    // stores keep the callers' inline cost and DSE's walks short.
    if (fieldType->isArrayTy())
      fieldType = llvm::FixedVectorType::get(ir.getInt64Ty(),
                                             layout.getTypeAllocSize(fieldType) / 8);
    ir.CreateAlignedStore(marker(ir, fieldType, field), ir.CreateStructGEP(type, state, field),
                          llvm::Align(8));
  }
}

void storeClobberMarker(llvm::IRBuilder<> &ir, llvm::Value *pointer, llvm::Type *type,
                        unsigned id) {
  ir.CreateAlignedStore(marker(ir, type, id), pointer, llvm::Align(8));
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
