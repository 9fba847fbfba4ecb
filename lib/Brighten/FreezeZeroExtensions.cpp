#include "Brighten/FreezeZeroExtensions.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

namespace hoist {
namespace {

/// `zext i32 %x to i64` of a value the selection might have built by a partial-register load.
bool widensAThirtyTwoBitValue(const llvm::ZExtInst &zext) {
  const llvm::Value *operand = zext.getOperand(0);
  return zext.getSrcTy()->isIntegerTy(32) && zext.getDestTy()->isIntegerTy(64) &&
         !llvm::isa<llvm::Constant, llvm::LoadInst, llvm::FreezeInst>(operand);
}

/// `zext (load i8/i16)` combined with another value by or, add or xor: the operand the
/// selection's partial-register load pattern folds (the DAG turns an add or xor of disjoint
/// bits into an or).
bool mergesALoadIntoLowBits(const llvm::ZExtInst &zext) {
  const auto *load = llvm::dyn_cast<llvm::LoadInst>(zext.getOperand(0));
  if (!load || !(load->getType()->isIntegerTy(8) || load->getType()->isIntegerTy(16)))
    return false;
  for (const llvm::User *user : zext.users())
    if (const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(user))
      switch (binary->getOpcode()) {
      case llvm::Instruction::Or:
      case llvm::Instruction::Add:
      case llvm::Instruction::Xor:
        return true;
      default:
        break;
      }
  return false;
}

} // namespace

unsigned freezeZeroExtensions(llvm::Module &module) {
  unsigned inserted = 0;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : llvm::make_early_inc_range(block)) {
        auto *zext = llvm::dyn_cast<llvm::ZExtInst>(&instruction);
        if (!zext)
          continue;
        if (widensAThirtyTwoBitValue(*zext)) {
          auto *frozen = new llvm::FreezeInst(zext->getOperand(0), "", zext->getIterator());
          zext->setOperand(0, frozen);
          ++inserted;
        } else if (mergesALoadIntoLowBits(*zext)) {
          auto *frozen = new llvm::FreezeInst(zext, "", std::next(zext->getIterator()));
          zext->replaceUsesWithIf(frozen,
                                  [frozen](llvm::Use &use) { return use.getUser() != frozen; });
          ++inserted;
        }
      }
  return inserted;
}

} // namespace hoist
