// NarrowTruncLoads: `trunc (load iN p) to iM` becomes `load iM p`.
//
// The lifter reads a whole register-sized value and truncates it where the instruction uses a
// sub-register (`mov eax, [rdi]` after a 64-bit load of the same slot, a byte compare of a
// qword loaded for something else...). On a little-endian target the low M bits of the wide
// value are the M bits at the same address, so the narrow load reads exactly what the trunc
// kept, and it touches fewer bytes, which helps later folding of image and stack memory.
// InstCombine leaves this alone (it never shrinks a load).
#include "Passes/Passes.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace hoist {

llvm::PreservedAnalyses NarrowTruncLoadsPass::run(llvm::Function &function,
                                                  llvm::FunctionAnalysisManager &) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  if (!layout.isLittleEndian())
    return llvm::PreservedAnalyses::all();
  std::vector<llvm::TruncInst *> truncs;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    auto *trunc = llvm::dyn_cast<llvm::TruncInst>(&inst);
    if (!trunc || !trunc->getType()->isIntegerTy())
      continue;
    auto *load = llvm::dyn_cast<llvm::LoadInst>(trunc->getOperand(0));
    // A volatile or atomic access must keep its width; a load with other users stays anyway.
    if (!load || !load->isSimple() || !load->hasOneUse())
      continue;
    // Only whole bytes: an i1 or i12 load would read a byte the wide value also read, but its
    // padding bits are not the next value bits.
    if (!layout.typeSizeEqualsStoreSize(trunc->getType()))
      continue;
    truncs.push_back(trunc);
  }
  for (llvm::TruncInst *trunc : truncs) {
    auto *wide = llvm::cast<llvm::LoadInst>(trunc->getOperand(0));
    llvm::IRBuilder<> ir(wide);
    llvm::LoadInst *narrow =
        ir.CreateAlignedLoad(trunc->getType(), wide->getPointerOperand(), wide->getAlign(),
                             wide->getName() + ".narrow");
    // Aliasing and provenance facts about the address still hold; value facts (range,
    // nonnull) were about the wide value and are dropped.
    narrow->copyMetadata(*wide, {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope,
                                 llvm::LLVMContext::MD_noalias,
                                 llvm::LLVMContext::MD_invariant_load,
                                 llvm::LLVMContext::MD_nontemporal});
    if (llvm::MDNode *pc = wide->getMetadata("hoist.pc"))
      narrow->setMetadata("hoist.pc", pc);
    trunc->replaceAllUsesWith(narrow);
    trunc->eraseFromParent();
    wide->eraseFromParent();
  }
  return preservedAfter(!truncs.empty());
}

} // namespace hoist
