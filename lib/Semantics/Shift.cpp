// Shifts (Zydis category SHIFT): shl/sal, shr, sar by 1, by an immediate and by cl.
//
// SDM vol. 2, SAL/SAR/SHL/SHR: the count is masked to 5 bits (6 with REX.W); a masked count of
// 0 leaves the flags alone; CF is the last bit shifted out; OF is defined for a count of 1 only
// (Hoist computes the count-1 formula for every count); AF is undefined (computed as 0).
#include "Semantics/CountedFlags.h"
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

enum class ShiftOp { Shl, Shr, Sar };

template <ShiftOp Op>
LiftStatus liftShift(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *value = ctx.readOperand(0);
  llvm::Value *count = maskedCount(ctx, 1, bits);

  // Narrow operands shift as 64-bit values: a count of up to 31 on an 8-bit operand is then
  // still a defined LLVM shift, and the bits shifted out stay visible for CF.
  llvm::Type *i64 = ir.getInt64Ty();
  llvm::Value *count64 = ir.CreateZExt(count, i64);
  llvm::Value *wide = Op == ShiftOp::Sar ? ir.CreateSExt(value, i64) : ir.CreateZExt(value, i64);
  llvm::Value *countMinus1 = ir.CreateSub(count64, ir.getInt64(1));
  llvm::Value *result;
  llvm::Value *carry;
  llvm::Value *overflow;
  switch (Op) {
  case ShiftOp::Shl: {
    result = ir.CreateTrunc(ir.CreateShl(wide, count64), ctx.intType(bits));
    // The last bit out is bit (bits - count) of the value; for count > bits it is 0.
    llvm::Value *shiftedOnce = ir.CreateShl(wide, countMinus1);
    llvm::Value *top = ir.CreateLShr(shiftedOnce, ir.getInt64(bits - 1));
    carry = ir.CreateTrunc(top, ir.getInt1Ty());
    overflow = ir.CreateXor(signFlag(ir, result), carry);
    break;
  }
  case ShiftOp::Shr:
  case ShiftOp::Sar: {
    llvm::Value *shifted = Op == ShiftOp::Sar ? ir.CreateAShr(wide, count64)
                                              : ir.CreateLShr(wide, count64);
    result = ir.CreateTrunc(shifted, ctx.intType(bits));
    carry = ir.CreateTrunc(Op == ShiftOp::Sar ? ir.CreateAShr(wide, countMinus1)
                                              : ir.CreateLShr(wide, countMinus1),
                           ir.getInt1Ty());
    overflow = Op == ShiftOp::Sar ? ir.getFalse() : signFlag(ir, value);
    break;
  }
  }

  ctx.writeOperand(0, result);

  CountedFlags(ctx, count).writeShiftFlags(carry, overflow, result);
  return LiftStatus::Lifted;
}

} // namespace

void registerShift(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_SHL, liftShift<ShiftOp::Shl>);
  table.add(ZYDIS_MNEMONIC_SHR, liftShift<ShiftOp::Shr>);
  table.add(ZYDIS_MNEMONIC_SAR, liftShift<ShiftOp::Sar>);
}

} // namespace hoist
