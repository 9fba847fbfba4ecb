#include "Brighten/FreezeZeroExtensions.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

namespace hoist {
namespace {

bool needsFreeze(const llvm::ZExtInst &zext) {
  const llvm::Value *operand = zext.getOperand(0);
  return zext.getSrcTy()->isIntegerTy(32) && zext.getDestTy()->isIntegerTy(64) &&
         !llvm::isa<llvm::Constant, llvm::LoadInst, llvm::FreezeInst>(operand);
}

} // namespace

unsigned freezeZeroExtensions(llvm::Module &module) {
  unsigned inserted = 0;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block) {
        auto *zext = llvm::dyn_cast<llvm::ZExtInst>(&instruction);
        if (!zext || !needsFreeze(*zext))
          continue;
        auto *frozen = new llvm::FreezeInst(zext->getOperand(0), "", zext->getIterator());
        zext->setOperand(0, frozen);
        ++inserted;
      }
  return inserted;
}

} // namespace hoist
