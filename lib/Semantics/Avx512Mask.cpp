// The AVX-512 opmask instructions (Zydis category KMASK; VEX-encoded): kmov, the bitwise
// operations, kadd, kortest, ktest, the shifts and kunpck, at their b/w/d/q widths (SDM vol. 2,
// and vol. 1, 15.6). Each works on the low `width` bits of its sources and writes its
// destination zero-extended to 64 bits.
#include "Semantics/Avx512Operands.h"
#include "Semantics/SimdHelpers.h"

namespace hoist {
namespace {

using avx512::readMaskRegister;
using avx512::writeMaskRegister;

/// The operation width of a k-instruction: the last letter of its mnemonic.
unsigned maskWidth(const Instr &instr) {
  llvm::StringRef name = instr.mnemonicName();
  switch (name.back()) {
  case 'b': return 8;
  case 'w': return 16;
  case 'd': return 32;
  default: return 64;
  }
}

/// Operand `index` (an opmask register, a GPR or memory) cut to `width` bits.
llvm::Value *readMaskOperand(LiftContext &ctx, unsigned index, unsigned width) {
  const Operand &operand = ctx.instr().op(index);
  if (operand.isReg() && ZydisRegisterGetClass(operand.reg) == ZYDIS_REGCLASS_MASK)
    return ctx.ir.CreateTrunc(readMaskRegister(ctx, operand.reg), ctx.intType(width));
  return ctx.readOperand(index, width);
}

/// kmovb/w/d/q in every direction: opmask from opmask, memory or GPR; memory or GPR from
/// opmask. A GPR destination is zero-extended (kmovb/w/d to r32, kmovq to r64).
LiftStatus liftKmov(LiftContext &ctx, const Instr &instr) {
  unsigned width = maskWidth(instr);
  llvm::Value *value = readMaskOperand(ctx, 1, width);
  const Operand &destination = instr.op(0);
  if (destination.isReg() && ZydisRegisterGetClass(destination.reg) == ZYDIS_REGCLASS_MASK) {
    writeMaskRegister(ctx, destination.reg, value);
  } else if (destination.isReg()) {
    ctx.writeReg(destination.reg, ctx.ir.CreateZExt(value, ctx.intType(destination.bits)));
  } else {
    ctx.writeOperand(0, value);
  }
  return LiftStatus::Lifted;
}

enum class MaskOp { And, AndNot, Or, Xor, Xnor, Add };

template <MaskOp Op> LiftStatus liftMaskBinary(LiftContext &ctx, const Instr &instr) {
  unsigned width = maskWidth(instr);
  llvm::Value *a = readMaskOperand(ctx, 1, width);
  llvm::Value *b = readMaskOperand(ctx, 2, width);
  auto &ir = ctx.ir;
  llvm::Value *result = nullptr;
  switch (Op) {
  case MaskOp::And: result = ir.CreateAnd(a, b); break;
  case MaskOp::AndNot: result = ir.CreateAnd(ir.CreateNot(a), b); break;
  case MaskOp::Or: result = ir.CreateOr(a, b); break;
  case MaskOp::Xor: result = ir.CreateXor(a, b); break;
  case MaskOp::Xnor: result = ir.CreateNot(ir.CreateXor(a, b)); break;
  case MaskOp::Add: result = ir.CreateAdd(a, b); break;
  }
  writeMaskRegister(ctx, instr.op(0).reg, result);
  return LiftStatus::Lifted;
}

LiftStatus liftKnot(LiftContext &ctx, const Instr &instr) {
  llvm::Value *a = readMaskOperand(ctx, 1, maskWidth(instr));
  writeMaskRegister(ctx, instr.op(0).reg, ctx.ir.CreateNot(a));
  return LiftStatus::Lifted;
}

/// The flags of kortest and ktest: ZF and CF as given, OF, SF, AF and PF cleared.
LiftStatus writeMaskTestFlags(LiftContext &ctx, llvm::Value *zf, llvm::Value *cf) {
  ctx.writeFlag(Var::ZF, zf);
  ctx.writeFlag(Var::CF, cf);
  for (Var flag : {Var::OF, Var::SF, Var::AF, Var::PF})
    ctx.writeFlag(flag, ctx.ir.getFalse());
  return LiftStatus::Lifted;
}

/// kortest: ZF when k1 | k2 is zero, CF when it is all ones.
LiftStatus liftKortest(LiftContext &ctx, const Instr &instr) {
  unsigned width = maskWidth(instr);
  llvm::Value *either = ctx.ir.CreateOr(readMaskOperand(ctx, 0, width),
                                        readMaskOperand(ctx, 1, width));
  return writeMaskTestFlags(ctx, ctx.ir.CreateICmpEQ(either, ctx.constant(width, 0)),
                            ctx.ir.CreateICmpEQ(either, ctx.constant(width, ~uint64_t(0))));
}

/// ktest: ZF when k1 & k2 is zero, CF when ~k1 & k2 is zero.
LiftStatus liftKtest(LiftContext &ctx, const Instr &instr) {
  unsigned width = maskWidth(instr);
  llvm::Value *a = readMaskOperand(ctx, 0, width);
  llvm::Value *b = readMaskOperand(ctx, 1, width);
  llvm::Value *zero = ctx.constant(width, 0);
  return writeMaskTestFlags(ctx, ctx.ir.CreateICmpEQ(ctx.ir.CreateAnd(a, b), zero),
                            ctx.ir.CreateICmpEQ(ctx.ir.CreateAnd(ctx.ir.CreateNot(a), b), zero));
}

/// kshiftl/kshiftr: the whole imm8 is the count; a count of `width` or more gives zero.
template <bool Left> LiftStatus liftKshift(LiftContext &ctx, const Instr &instr) {
  unsigned width = maskWidth(instr);
  llvm::Value *a = readMaskOperand(ctx, 1, width);
  unsigned count = simd::immediate(instr, 2);
  llvm::Value *result = count >= width ? ctx.constant(width, 0)
                        : Left         ? ctx.ir.CreateShl(a, count)
                                       : ctx.ir.CreateLShr(a, count);
  writeMaskRegister(ctx, instr.op(0).reg, result);
  return LiftStatus::Lifted;
}

/// kunpckbw/wd/dq k1, k2, k3: the low halves of k3 (low) and k2 (high) side by side.
LiftStatus liftKunpck(LiftContext &ctx, const Instr &instr) {
  unsigned width = maskWidth(instr);   // the result's: w, d or q
  unsigned half = width / 2;
  llvm::IntegerType *type = ctx.intType(width);
  llvm::Value *high = ctx.ir.CreateZExt(readMaskOperand(ctx, 1, half), type);
  llvm::Value *low = ctx.ir.CreateZExt(readMaskOperand(ctx, 2, half), type);
  writeMaskRegister(ctx, instr.op(0).reg, ctx.ir.CreateOr(ctx.ir.CreateShl(high, half), low));
  return LiftStatus::Lifted;
}

} // namespace

/// The four widths of a k-instruction: KAND gives kandb, kandw, kandd, kandq.
#define MASK_WIDTHS(name)                                                                    \
  {ZYDIS_MNEMONIC_##name##B, ZYDIS_MNEMONIC_##name##W, ZYDIS_MNEMONIC_##name##D,            \
   ZYDIS_MNEMONIC_##name##Q}

void registerAvx512Mask(SemanticTable &table) {
  auto addWidths = [&](std::initializer_list<ZydisMnemonic> mnemonics, Semantic semantic) {
    for (ZydisMnemonic m : mnemonics)
      table.add(m, semantic);
  };
  addWidths(MASK_WIDTHS(KMOV), liftKmov);
  addWidths(MASK_WIDTHS(KAND), liftMaskBinary<MaskOp::And>);
  addWidths(MASK_WIDTHS(KANDN), liftMaskBinary<MaskOp::AndNot>);
  addWidths(MASK_WIDTHS(KOR), liftMaskBinary<MaskOp::Or>);
  addWidths(MASK_WIDTHS(KXOR), liftMaskBinary<MaskOp::Xor>);
  addWidths(MASK_WIDTHS(KXNOR), liftMaskBinary<MaskOp::Xnor>);
  addWidths(MASK_WIDTHS(KADD), liftMaskBinary<MaskOp::Add>);
  addWidths(MASK_WIDTHS(KNOT), liftKnot);
  addWidths(MASK_WIDTHS(KORTEST), liftKortest);
  addWidths(MASK_WIDTHS(KTEST), liftKtest);
  addWidths(MASK_WIDTHS(KSHIFTL), liftKshift<true>);
  addWidths(MASK_WIDTHS(KSHIFTR), liftKshift<false>);
  addWidths({ZYDIS_MNEMONIC_KUNPCKBW, ZYDIS_MNEMONIC_KUNPCKWD, ZYDIS_MNEMONIC_KUNPCKDQ},
            liftKunpck);
}

#undef MASK_WIDTHS

} // namespace hoist
