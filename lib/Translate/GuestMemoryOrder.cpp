#include "Translate/GuestMemoryOrder.h"

#include "Translate/StatePointers.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace hoist {

namespace {

/// Whether x86 moves a value of `type` in one access that LLVM can make atomic.
bool isWordSized(llvm::Type *type, const llvm::DataLayout &layout) {
  if (!type->isIntegerTy() && !type->isPointerTy() && !type->isFloatingPointTy())
    return false;
  if (type->isX86_FP80Ty() || type->isFP128Ty() || type->isPPC_FP128Ty())
    return false;
  uint64_t bytes = layout.getTypeStoreSize(type);
  return layout.getTypeSizeInBits(type) == bytes * 8 && bytes <= 8 &&
         llvm::isPowerOf2_64(bytes);
}

} // namespace

bool makesThreads(const Image &image) {
  for (const Import &import : image.imports())
    if (import.name == "pthread_create" || import.name == "thrd_create")
      return true;
  return false;
}

unsigned orderGuestAccessesAsX86(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  unsigned changed = 0;
  for (llvm::Function &function : module) {
    if (!isLiftedFunction(function) || function.isDeclaration())
      continue;
    llvm::Argument *memory = function.getArg(1);
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
      auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
      if ((!load && !store) || (load ? !load->isSimple() : !store->isSimple()))
        continue;
      llvm::Type *type = load ? load->getType() : store->getValueOperand()->getType();
      llvm::Value *pointer = llvm::getLoadStorePointerOperand(&instruction);
      if (!isWordSized(type, layout) || llvm::getUnderlyingObject(pointer) != memory)
        continue;
      // Natural alignment: LLVM lowers a less aligned atomic to a libatomic call. The x86
      // backend emits the same `mov` either way, and the CPU performs it at any address.
      llvm::Align natural(layout.getTypeStoreSize(type));
      if (load) {
        load->setAtomic(llvm::AtomicOrdering::Acquire);
        load->setAlignment(natural);
      } else {
        store->setAtomic(llvm::AtomicOrdering::Release);
        store->setAlignment(natural);
      }
      ++changed;
    }
  }
  return changed;
}

} // namespace hoist
