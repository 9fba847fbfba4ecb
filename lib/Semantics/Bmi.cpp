// Semantics of BMI1, BMI2 and ADX (andn ... shrx, adcx, adox).
//
// The VEX forms take 32- or 64-bit operands in Intel order (Zydis keeps it): andn dst, vvvv,
// r/m; bextr/bzhi/sarx/shlx/shrx dst, r/m, vvvv; blsi/blsmsk/blsr vvvv, r/m; mulx hi, lo, r/m
// with rdx implicit. Flags the SDM leaves undefined get the constant 0.
#include "Semantics/Semantics.h"

#include <llvm/IR/Intrinsics.h>

namespace hoist {
namespace {

/// andn: dst = ~src1 & src2; SF ZF from the result, CF OF cleared, AF PF undefined.
LiftStatus liftAndn(LiftContext &ctx, const Instr &instr) {
  llvm::Value *lhs = ctx.readOperand(1);
  llvm::Value *rhs = ctx.readOperand(2);
  llvm::Value *result = ctx.ir.CreateAnd(ctx.ir.CreateNot(lhs), rhs);
  ctx.writeOperand(0, result);
  ctx.writeFlags(FlagOp::Logic, lhs, rhs, result);   // PF from the result: it is undefined
  return LiftStatus::Lifted;
}

/// bextr: `length` bits of src from bit `start` (control bits 7:0 and 15:8), zero-filled past
/// the top; ZF from the result, CF OF cleared, AF SF PF undefined (SDM vol. 2, BEXTR).
LiftStatus liftBextr(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1);
  llvm::Value *control = ctx.readOperand(2);
  llvm::Value *width = ctx.constant(bits, bits);
  llvm::Value *start = ir.CreateAnd(control, ctx.constant(bits, 0xff));
  llvm::Value *length = ir.CreateAnd(ir.CreateLShr(control, 8), ctx.constant(bits, 0xff));
  // Shift amounts are masked so that no shift is poison; the selects pick the real answer.
  llvm::Value *lowBits = ctx.constant(bits, bits - 1);
  llvm::Value *shifted = ir.CreateSelect(ir.CreateICmpULT(start, width),
                                         ir.CreateLShr(source, ir.CreateAnd(start, lowBits)),
                                         ctx.constant(bits, 0));
  llvm::Value *mask = ir.CreateSelect(
      ir.CreateICmpULT(length, width),
      ir.CreateSub(ir.CreateShl(ctx.constant(bits, 1), ir.CreateAnd(length, lowBits)),
                   ctx.constant(bits, 1)),
      ctx.constant(bits, ~uint64_t(0)));
  llvm::Value *result = ir.CreateAnd(shifted, mask);
  ctx.writeOperand(0, result);
  ctx.writeFlags(FlagOp::Logic, source, control, result);   // SF, PF: undefined
  return LiftStatus::Lifted;
}

enum class LowestBitOp { Isolate, Mask, Reset };

/// blsi (src & -src), blsmsk (src ^ (src - 1)), blsr (src & (src - 1)). OF is cleared, AF and
/// PF undefined. blsi: CF = (src != 0), ZF SF from the result; blsmsk: CF = (src == 0), ZF
/// cleared, SF from the result; blsr: CF = (src == 0), ZF SF from the result (SDM vol. 2).
template <LowestBitOp Op>
LiftStatus liftLowestBit(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1);
  llvm::Value *minusOne = ir.CreateSub(source, ctx.constant(bits, 1));
  llvm::Value *result = Op == LowestBitOp::Isolate ? ir.CreateAnd(source, ir.CreateNeg(source))
                        : Op == LowestBitOp::Mask  ? ir.CreateXor(source, minusOne)
                                                   : ir.CreateAnd(source, minusOne);
  ctx.writeOperand(0, result);
  llvm::Value *sourceIsZero = zeroFlag(ir, source);
  ctx.writeFlag(Var::CF, Op == LowestBitOp::Isolate ? ir.CreateNot(sourceIsZero) : sourceIsZero);
  ctx.writeFlag(Var::ZF, Op == LowestBitOp::Mask ? ir.getFalse() : zeroFlag(ir, result));
  ctx.writeFlag(Var::SF, signFlag(ir, result));
  ctx.writeFlag(Var::OF, ir.getFalse());
  ctx.writeFlag(Var::AF, ir.getFalse());
  ctx.writeFlag(Var::PF, ir.getFalse());
  return LiftStatus::Lifted;
}

/// bzhi: src with the bits from index n (control bits 7:0) up cleared; CF = (n >= width),
/// ZF SF from the result, OF cleared, AF PF undefined (SDM vol. 2, BZHI).
LiftStatus liftBzhi(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1);
  llvm::Value *n = ir.CreateAnd(ctx.readOperand(2), ctx.constant(bits, 0xff));
  llvm::Value *outOfRange = ir.CreateICmpUGE(n, ctx.constant(bits, bits));
  llvm::Value *mask = ir.CreateSub(
      ir.CreateShl(ctx.constant(bits, 1), ir.CreateAnd(n, ctx.constant(bits, bits - 1))),
      ctx.constant(bits, 1));
  llvm::Value *result = ir.CreateSelect(outOfRange, source, ir.CreateAnd(source, mask));
  ctx.writeOperand(0, result);
  ctx.writeFlag(Var::CF, outOfRange);
  ctx.writeFlag(Var::ZF, zeroFlag(ir, result));
  ctx.writeFlag(Var::SF, signFlag(ir, result));
  ctx.writeFlag(Var::OF, ir.getFalse());
  ctx.writeFlag(Var::AF, ir.getFalse());
  ctx.writeFlag(Var::PF, ir.getFalse());
  return LiftStatus::Lifted;
}

/// pdep scatters the low bits of src to the set bits of mask; pext gathers the bits of src
/// under mask into the low bits. No flags (SDM vol. 2, PDEP/PEXT). Straight-line: one step per
/// bit, with `k` the number of mask bits below bit i.
template <bool Deposit>
LiftStatus liftBitPermute(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1);
  llvm::Value *mask = ctx.readOperand(2);
  llvm::Value *one = ctx.constant(bits, 1);
  llvm::Value *result = ctx.constant(bits, 0);
  llvm::Value *k = ctx.constant(bits, 0);
  for (unsigned i = 0; i < bits; ++i) {
    llvm::Value *i_ = ctx.constant(bits, i);
    llvm::Value *selected = ir.CreateAnd(ir.CreateLShr(mask, i_), one);
    llvm::Value *bit = ir.CreateAnd(ir.CreateLShr(source, Deposit ? k : i_), selected);
    result = ir.CreateOr(result, ir.CreateShl(bit, Deposit ? i_ : k));
    k = ir.CreateAdd(k, selected);
  }
  ctx.writeOperand(0, result);
  return LiftStatus::Lifted;
}

/// mulx hi, lo, src: unsigned rdx * src without touching flags. With hi and lo the same
/// register, it gets the high half (SDM vol. 2, MULX), so lo is written first.
LiftStatus liftMulx(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *a = ctx.readReg(bits == 64 ? ZYDIS_REGISTER_RDX : ZYDIS_REGISTER_EDX);
  llvm::Value *b = ctx.readOperand(2);
  llvm::IntegerType *wide = ctx.intType(bits * 2);
  llvm::Value *product = ir.CreateMul(ir.CreateZExt(a, wide), ir.CreateZExt(b, wide));
  llvm::Value *low = ir.CreateTrunc(product, ctx.intType(bits));
  llvm::Value *high = ir.CreateTrunc(ir.CreateLShr(product, bits), ctx.intType(bits));
  ctx.writeOperand(1, low);
  ctx.writeOperand(0, high);
  return LiftStatus::Lifted;
}

/// rorx dst, src, imm8: rotate right by the count masked to 5 bits (6 for 64), no flags.
LiftStatus liftRorx(LiftContext &ctx, const Instr &instr) {
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1);
  llvm::Value *count = ctx.constant(bits, instr.op(2).imm & (bits - 1));
  ctx.writeOperand(0, ctx.ir.CreateIntrinsic(llvm::Intrinsic::fshr, {source->getType()},
                                             {source, source, count}));
  return LiftStatus::Lifted;
}

enum class ShiftXOp { Sar, Shl, Shr };

/// sarx, shlx, shrx dst, src, count: the count masked to 5 bits (6 for 64), no flags.
template <ShiftXOp Op>
LiftStatus liftShiftX(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1);
  llvm::Value *count = ir.CreateAnd(ctx.readOperand(2), ctx.constant(bits, bits - 1));
  llvm::Value *result = Op == ShiftXOp::Sar   ? ir.CreateAShr(source, count)
                        : Op == ShiftXOp::Shl ? ir.CreateShl(source, count)
                                              : ir.CreateLShr(source, count);
  ctx.writeOperand(0, result);
  return LiftStatus::Lifted;
}

/// adcx (carry in and out through CF) and adox (through OF): dst += src + carry, and no other
/// flag changes (SDM vol. 2, ADCX/ADOX).
template <Var Carry>
LiftStatus liftAddCarryX(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *lhs = ctx.readOperand(0);
  llvm::Value *rhs = ctx.readOperand(1, bits);
  llvm::Value *carry = ctx.readFlag(Carry);
  llvm::Value *result = ir.CreateAdd(ir.CreateAdd(lhs, rhs), ir.CreateZExt(carry, lhs->getType()));
  ctx.writeOperand(0, result);
  ctx.writeFlag(Carry, carryOfAdd(ir, lhs, result, carry));
  return LiftStatus::Lifted;
}

} // namespace

void registerBmi(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_ANDN, liftAndn);
  table.add(ZYDIS_MNEMONIC_BEXTR, liftBextr);
  table.add(ZYDIS_MNEMONIC_BLSI, liftLowestBit<LowestBitOp::Isolate>);
  table.add(ZYDIS_MNEMONIC_BLSMSK, liftLowestBit<LowestBitOp::Mask>);
  table.add(ZYDIS_MNEMONIC_BLSR, liftLowestBit<LowestBitOp::Reset>);
  table.add(ZYDIS_MNEMONIC_BZHI, liftBzhi);
  table.add(ZYDIS_MNEMONIC_PDEP, liftBitPermute<true>);
  table.add(ZYDIS_MNEMONIC_PEXT, liftBitPermute<false>);
  table.add(ZYDIS_MNEMONIC_MULX, liftMulx);
  table.add(ZYDIS_MNEMONIC_RORX, liftRorx);
  table.add(ZYDIS_MNEMONIC_SARX, liftShiftX<ShiftXOp::Sar>);
  table.add(ZYDIS_MNEMONIC_SHLX, liftShiftX<ShiftXOp::Shl>);
  table.add(ZYDIS_MNEMONIC_SHRX, liftShiftX<ShiftXOp::Shr>);
  table.add(ZYDIS_MNEMONIC_ADCX, liftAddCarryX<Var::CF>);
  table.add(ZYDIS_MNEMONIC_ADOX, liftAddCarryX<Var::OF>);
}

} // namespace hoist
