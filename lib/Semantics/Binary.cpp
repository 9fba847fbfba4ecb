// Integer arithmetic (Zydis category BINARY): add, adc, sub, sbb, cmp, inc, dec, neg, imul.
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

/// add, adc, sub, sbb, cmp: dst op= src (+/- CF), flags from the full operation.
template <bool IsSub, bool UsesCarry, bool WritesResult>
LiftStatus liftAddSub(LiftContext &ctx, const Instr &instr) {
  unsigned bits = ctx.operandBits(0);
  // A locked one reads its sources first, for the atomicrmw; the plain order stays as it was.
  bool locked = WritesResult && ctx.updatesAtomically(0);
  llvm::Value *lhs = locked ? nullptr : ctx.readOperand(0);
  llvm::Value *rhs = ctx.readOperand(1, bits);
  llvm::Value *carry = UsesCarry ? ctx.readFlag(Var::CF) : nullptr;
  if (locked) {
    // adc and sbb add or subtract src + CF in one step, the same modulo 2^bits.
    llvm::Value *applied =
        carry ? ctx.ir.CreateAdd(rhs, ctx.ir.CreateZExt(carry, ctx.intType(bits))) : rhs;
    lhs = ctx.readOperandForUpdate(0, IsSub ? llvm::AtomicRMWInst::Sub : llvm::AtomicRMWInst::Add,
                                   applied);
  }
  llvm::Value *result = IsSub ? ctx.ir.CreateSub(lhs, rhs) : ctx.ir.CreateAdd(lhs, rhs);
  if (carry) {
    // The carry joins the result only; flags see the original operands (see Flags.cpp).
    llvm::Value *wideCarry = ctx.ir.CreateZExt(carry, ctx.intType(bits));
    result = IsSub ? ctx.ir.CreateSub(result, wideCarry) : ctx.ir.CreateAdd(result, wideCarry);
  }
  if (WritesResult)
    ctx.writeOperand(0, result);
  ctx.writeFlags(IsSub ? FlagOp::Sub : FlagOp::Add, lhs, rhs, result, carry);
  return LiftStatus::Lifted;
}

template <bool IsDec>
LiftStatus liftIncDec(LiftContext &ctx, const Instr &instr) {
  unsigned bits = ctx.operandBits(0);
  llvm::Value *one = ctx.constant(bits, 1);
  llvm::Value *value = ctx.readOperandForUpdate(
      0, IsDec ? llvm::AtomicRMWInst::Sub : llvm::AtomicRMWInst::Add, one);
  llvm::Value *result = IsDec ? ctx.ir.CreateSub(value, one) : ctx.ir.CreateAdd(value, one);
  ctx.writeOperand(0, result);
  ctx.writeFlags(IsDec ? FlagOp::Dec : FlagOp::Inc, value, one, result);
  return LiftStatus::Lifted;
}

LiftStatus liftNeg(LiftContext &ctx, const Instr &instr) {
  unsigned bits = ctx.operandBits(0);
  llvm::Value *zero = ctx.constant(bits, 0);
  llvm::Value *value = ctx.readOperandForUpdate(
      0, [&](llvm::Value *old) { return ctx.ir.CreateSub(zero, old); });
  llvm::Value *result = ctx.ir.CreateSub(zero, value);
  ctx.writeOperand(0, result);
  ctx.writeFlags(FlagOp::Sub, zero, value, result);
  return LiftStatus::Lifted;
}

} // namespace

/// Flags of a multiply: CF = OF = the product does not fit the destination (SDM vol. 2, IMUL).
/// SF, ZF, AF and PF are undefined; Hoist computes SF, ZF and PF from the result, AF as 0.
void writeMultiplyFlags(LiftContext &ctx, llvm::Value *truncated, llvm::Value *fits) {
  llvm::Value *overflow = ctx.ir.CreateNot(fits);
  ctx.writeFlag(Var::CF, overflow);
  ctx.writeFlag(Var::OF, overflow);
  ctx.writeFlag(Var::SF, signFlag(ctx.ir, truncated));
  ctx.writeFlag(Var::ZF, zeroFlag(ctx.ir, truncated));
  ctx.writeFlag(Var::PF, parityFlag(ctx.ir, truncated));
  ctx.writeFlag(Var::AF, ctx.ir.getFalse());
}

/// imul with 2 or 3 explicit operands: dst = src1 * src2, truncated to the operand size.
/// (The one-operand form is in MulDiv.cpp, which registers the mnemonic.)
LiftStatus liftImul(LiftContext &ctx, const Instr &instr) {
  unsigned bits = ctx.operandBits(0);
  unsigned first = instr.explicitCount == 3 ? 1 : 0;
  llvm::Value *a = ctx.readOperand(first, bits);
  llvm::Value *b = ctx.readOperand(first + 1, bits);
  llvm::IntegerType *wide = ctx.intType(bits * 2);
  llvm::Value *product = ctx.ir.CreateMul(ctx.ir.CreateSExt(a, wide), ctx.ir.CreateSExt(b, wide));
  llvm::Value *result = ctx.ir.CreateTrunc(product, ctx.intType(bits));
  llvm::Value *fits = ctx.ir.CreateICmpEQ(ctx.ir.CreateSExt(result, wide), product);
  ctx.writeOperand(0, result);
  writeMultiplyFlags(ctx, result, fits);
  return LiftStatus::Lifted;
}

void registerBinary(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_ADD, liftAddSub<false, false, true>);
  table.add(ZYDIS_MNEMONIC_ADC, liftAddSub<false, true, true>);
  table.add(ZYDIS_MNEMONIC_SUB, liftAddSub<true, false, true>);
  table.add(ZYDIS_MNEMONIC_SBB, liftAddSub<true, true, true>);
  table.add(ZYDIS_MNEMONIC_CMP, liftAddSub<true, false, false>);
  table.add(ZYDIS_MNEMONIC_INC, liftIncDec<false>);
  table.add(ZYDIS_MNEMONIC_DEC, liftIncDec<true>);
  table.add(ZYDIS_MNEMONIC_NEG, liftNeg);
}

} // namespace hoist
