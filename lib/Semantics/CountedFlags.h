// Flags of instructions with a count (shifts, rotates, double shifts): SDM vol. 2 masks the
// count to 5 bits (6 with REX.W), and a masked count of 0 changes no flag.
#pragma once

#include "Arch/Flags.h"
#include "Arch/LiftContext.h"

namespace hoist {

/// Operand `index` as an i8 count, masked as every shift, rotate and double shift masks it.
inline llvm::Value *maskedCount(LiftContext &ctx, unsigned index, unsigned bits) {
  return ctx.ir.CreateAnd(ctx.readOperand(index, 8), ctx.ir.getInt8(bits == 64 ? 63 : 31));
}

/// Writes flags that the instruction changes only when its masked count is not 0. A constant
/// count of 0 writes nothing; a count in a register selects the old flag when it is 0.
class CountedFlags {
public:
  CountedFlags(LiftContext &ctx, llvm::Value *maskedCount)
      : ctx_(ctx), constant_(llvm::dyn_cast<llvm::ConstantInt>(maskedCount)) {
    if (!constant_)
      isZero_ = ctx.ir.CreateICmpEQ(maskedCount, ctx.ir.getInt8(0));
  }
  bool unchanged() const { return constant_ && constant_->isZero(); }
  void write(Var flag, llvm::Value *computed) {
    if (unchanged())
      return;
    if (constant_)
      ctx_.writeFlag(flag, computed);
    else
      ctx_.writeFlag(flag, ctx_.ir.CreateSelect(isZero_, ctx_.readFlag(flag), computed));
  }
  /// The flags of a shift (shl, shr, sar, shld, shrd): CF and OF as given, SF ZF PF from the
  /// result, AF (undefined) as 0.
  void writeShiftFlags(llvm::Value *carry, llvm::Value *overflow, llvm::Value *result) {
    write(Var::CF, carry);
    write(Var::OF, overflow);
    write(Var::SF, signFlag(ctx_.ir, result));
    write(Var::ZF, zeroFlag(ctx_.ir, result));
    write(Var::PF, parityFlag(ctx_.ir, result));
    write(Var::AF, ctx_.ir.getFalse());
  }

private:
  LiftContext &ctx_;
  llvm::ConstantInt *constant_;
  llvm::Value *isZero_ = nullptr;
};

} // namespace hoist
