#include "Translate/NullMemoryBase.h"

#include "Translate/StatePointers.h"

#include <llvm/IR/Constants.h>

namespace hoist {

unsigned useNullMemoryBase(llvm::Module &module) {
  unsigned changed = 0;
  for (llvm::Function &function : module) {
    if (!isLiftedFunction(function))
      continue;
    llvm::Argument *memory = function.getArg(1);
    if (!memory->getType()->isPointerTy())
      continue;
    function.addFnAttr(llvm::Attribute::NullPointerIsValid);
    // What the optimizer inferred about the argument (`memory(argmem: ...)`, a readonly or
    // noalias memory base) no longer describes accesses through null.
    function.setMemoryEffects(llvm::MemoryEffects::unknown());
    for (llvm::Attribute::AttrKind kind : {llvm::Attribute::ReadNone, llvm::Attribute::ReadOnly,
                                           llvm::Attribute::WriteOnly, llvm::Attribute::NoAlias})
      function.removeParamAttr(1, kind);
    if (memory->use_empty())
      continue;
    memory->replaceAllUsesWith(
        llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(memory->getType())));
    ++changed;
  }
  return changed;
}

} // namespace hoist
