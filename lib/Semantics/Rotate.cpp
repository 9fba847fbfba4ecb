// Semantics of rotates and double shifts (Zydis categories ROTATE and SHIFT's shld/shrd).
//
// SDM vol. 2, RCL/RCR/ROL/ROR and SHLD/SHRD. The count is masked to 5 bits (6 with REX.W), and
// a masked count of 0 changes no flag. OF is defined for a masked count of 1 only; Hoist
// computes the count-1 formula for every count. The destination is written even for a count
// of 0, so a 32-bit register destination is zero-extended, as on the CPU.
#include "Semantics/CountedFlags.h"
#include "Semantics/Semantics.h"

#include <llvm/IR/Intrinsics.h>

namespace hoist {
namespace {

llvm::Value *bitOf(llvm::IRBuilderBase &ir, llvm::Value *value, unsigned bit) {
  return ir.CreateTrunc(ir.CreateLShr(value, bit), ir.getInt1Ty());
}

/// rol/ror r/m, count: rotate by count mod width, which is what llvm.fshl/fshr with both
/// inputs the same compute. CF is bit 0 (rol) or the top bit (ror) of the result even when
/// count mod width is 0, as long as the masked count is not. OF: rol, MSB(result) ^ CF; ror,
/// the two top bits of the result XORed.
template <bool Left>
LiftStatus liftRotate(LiftContext &ctx, const Instr &) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *value = ctx.readOperand(0);
  llvm::Value *count = maskedCount(ctx, 1, bits);

  llvm::Value *amount = ir.CreateZExtOrTrunc(count, ctx.intType(bits));
  llvm::Value *result = ir.CreateIntrinsic(Left ? llvm::Intrinsic::fshl : llvm::Intrinsic::fshr,
                                           {ctx.intType(bits)}, {value, value, amount});
  llvm::Value *top = signFlag(ir, result);
  llvm::Value *carry = Left ? bitOf(ir, result, 0) : top;
  llvm::Value *overflow = ir.CreateXor(top, Left ? carry : bitOf(ir, result, bits - 2));

  ctx.writeOperand(0, result);

  CountedFlags flags(ctx, count);
  flags.write(Var::CF, carry);
  flags.write(Var::OF, overflow);
  return LiftStatus::Lifted;
}

/// rcl/rcr r/m, count: rotate CF:value, bits + 1 wide, by tempCOUNT, the masked count mod 9
/// (8-bit) or 17 (16-bit). The rotation runs in an integer twice the width, so shifts by up
/// to bits + 1 stay defined and a tempCOUNT of 0 needs no special case; CF then comes out of
/// bit `bits`, unchanged when tempCOUNT is 0. OF: rcl, MSB(result) ^ CF after; rcr,
/// MSB(value) ^ CF before, as the SDM's pseudo-code orders them.
template <bool Left>
LiftStatus liftRotateThroughCarry(LiftContext &ctx, const Instr &) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *value = ctx.readOperand(0);
  llvm::Value *carryIn = ctx.readFlag(Var::CF);
  llvm::Value *count = maskedCount(ctx, 1, bits);

  llvm::Value *rotation = bits < 32 ? ir.CreateURem(count, ir.getInt8(bits + 1)) : count;
  llvm::IntegerType *wide = ctx.intType(bits * 2);
  llvm::Value *joined = ir.CreateOr(ir.CreateZExt(value, wide),
                                    ir.CreateShl(ir.CreateZExt(carryIn, wide), bits));
  llvm::Value *amount = ir.CreateZExt(rotation, wide);
  llvm::Value *back = ir.CreateSub(llvm::ConstantInt::get(wide, bits + 1), amount);
  llvm::Value *rotated =
      Left ? ir.CreateOr(ir.CreateShl(joined, amount), ir.CreateLShr(joined, back))
           : ir.CreateOr(ir.CreateLShr(joined, amount), ir.CreateShl(joined, back));
  llvm::Value *result = ir.CreateTrunc(rotated, ctx.intType(bits));
  llvm::Value *carry = bitOf(ir, rotated, bits);
  llvm::Value *overflow = Left ? ir.CreateXor(signFlag(ir, result), carry)
                               : ir.CreateXor(signFlag(ir, value), carryIn);

  ctx.writeOperand(0, result);

  CountedFlags flags(ctx, count);
  flags.write(Var::CF, carry);
  flags.write(Var::OF, overflow);
  return LiftStatus::Lifted;
}

/// shld/shrd r/m, reg, count: llvm.fshl(dest, src, count) and llvm.fshr(src, dest, count) are
/// exactly the double shifts for counts below the width. A 16-bit operand also takes a count of
/// 16 (dest becomes src), which the funnel shifts would reduce to 0; counts above 16 leave the
/// destination and flags undefined. CF is the last bit shifted out: the top (shld) or bottom
/// (shrd) bit of the same shift by count - 1. OF is set on a sign change; AF is undefined
/// (computed as 0); SF, ZF and PF come from the result.
template <bool Left>
LiftStatus liftDoubleShift(LiftContext &ctx, const Instr &) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *dest = ctx.readOperand(0);
  llvm::Value *src = ctx.readOperand(1);
  llvm::Value *count = maskedCount(ctx, 2, bits);

  llvm::IntegerType *type = ctx.intType(bits);
  auto funnel = [&](llvm::Value *amount) {
    return Left ? ir.CreateIntrinsic(llvm::Intrinsic::fshl, {type}, {dest, src, amount})
                : ir.CreateIntrinsic(llvm::Intrinsic::fshr, {type}, {src, dest, amount});
  };
  llvm::Value *amount = ir.CreateZExtOrTrunc(count, type);
  llvm::Value *result = funnel(amount);
  if (bits == 16)
    result = ir.CreateSelect(ir.CreateICmpEQ(count, ir.getInt8(16)), src, result);
  // For a count of 0 the count - 1 wraps, and the funnel shift's modulo keeps it defined.
  llvm::Value *lastShift = funnel(ir.CreateSub(amount, llvm::ConstantInt::get(type, 1)));
  llvm::Value *carry = Left ? signFlag(ir, lastShift) : bitOf(ir, lastShift, 0);
  llvm::Value *overflow = ir.CreateXor(signFlag(ir, result), signFlag(ir, dest));

  ctx.writeOperand(0, result);

  CountedFlags(ctx, count).writeShiftFlags(carry, overflow, result);
  return LiftStatus::Lifted;
}

} // namespace

void registerRotate(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_ROL, liftRotate<true>);
  table.add(ZYDIS_MNEMONIC_ROR, liftRotate<false>);
  table.add(ZYDIS_MNEMONIC_RCL, liftRotateThroughCarry<true>);
  table.add(ZYDIS_MNEMONIC_RCR, liftRotateThroughCarry<false>);
  table.add(ZYDIS_MNEMONIC_SHLD, liftDoubleShift<true>);
  table.add(ZYDIS_MNEMONIC_SHRD, liftDoubleShift<false>);
}

} // namespace hoist
