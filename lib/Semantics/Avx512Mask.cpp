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

/// kortest: ZF when k1 | k2 is zero, CF when it is all ones; OF, SF, AF, PF cleared.
LiftStatus liftKortest(LiftContext &ctx, const Instr &instr) {
  unsigned width = maskWidth(instr);
  llvm::Value *either = ctx.ir.CreateOr(readMaskOperand(ctx, 0, width),
                                        readMaskOperand(ctx, 1, width));
  ctx.writeFlag(Var::ZF, ctx.ir.CreateICmpEQ(either, ctx.constant(width, 0)));
  ctx.writeFlag(Var::CF, ctx.ir.CreateICmpEQ(either, ctx.constant(width, ~uint64_t(0))));
  for (Var flag : {Var::OF, Var::SF, Var::AF, Var::PF})
    ctx.writeFlag(flag, ctx.ir.getFalse());
  return LiftStatus::Lifted;
}

/// ktest: ZF when k1 & k2 is zero, CF when ~k1 & k2 is zero; OF, SF, AF, PF cleared.
LiftStatus liftKtest(LiftContext &ctx, const Instr &instr) {
  unsigned width = maskWidth(instr);
  llvm::Value *a = readMaskOperand(ctx, 0, width);
  llvm::Value *b = readMaskOperand(ctx, 1, width);
  llvm::Value *zero = ctx.constant(width, 0);
  ctx.writeFlag(Var::ZF, ctx.ir.CreateICmpEQ(ctx.ir.CreateAnd(a, b), zero));
  ctx.writeFlag(Var::CF, ctx.ir.CreateICmpEQ(ctx.ir.CreateAnd(ctx.ir.CreateNot(a), b), zero));
  for (Var flag : {Var::OF, Var::SF, Var::AF, Var::PF})
    ctx.writeFlag(flag, ctx.ir.getFalse());
  return LiftStatus::Lifted;
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

void registerAvx512Mask(SemanticTable &table) {
  for (ZydisMnemonic m : {ZYDIS_MNEMONIC_KMOVB, ZYDIS_MNEMONIC_KMOVW, ZYDIS_MNEMONIC_KMOVD,
                          ZYDIS_MNEMONIC_KMOVQ})
    table.add(m, liftKmov);
  auto addWidths = [&](std::initializer_list<ZydisMnemonic> mnemonics, Semantic semantic) {
    for (ZydisMnemonic m : mnemonics)
      table.add(m, semantic);
  };
  addWidths({ZYDIS_MNEMONIC_KANDB, ZYDIS_MNEMONIC_KANDW, ZYDIS_MNEMONIC_KANDD,
             ZYDIS_MNEMONIC_KANDQ},
            liftMaskBinary<MaskOp::And>);
  addWidths({ZYDIS_MNEMONIC_KANDNB, ZYDIS_MNEMONIC_KANDNW, ZYDIS_MNEMONIC_KANDND,
             ZYDIS_MNEMONIC_KANDNQ},
            liftMaskBinary<MaskOp::AndNot>);
  addWidths({ZYDIS_MNEMONIC_KORB, ZYDIS_MNEMONIC_KORW, ZYDIS_MNEMONIC_KORD, ZYDIS_MNEMONIC_KORQ},
            liftMaskBinary<MaskOp::Or>);
  addWidths({ZYDIS_MNEMONIC_KXORB, ZYDIS_MNEMONIC_KXORW, ZYDIS_MNEMONIC_KXORD,
             ZYDIS_MNEMONIC_KXORQ},
            liftMaskBinary<MaskOp::Xor>);
  addWidths({ZYDIS_MNEMONIC_KXNORB, ZYDIS_MNEMONIC_KXNORW, ZYDIS_MNEMONIC_KXNORD,
             ZYDIS_MNEMONIC_KXNORQ},
            liftMaskBinary<MaskOp::Xnor>);
  addWidths({ZYDIS_MNEMONIC_KADDB, ZYDIS_MNEMONIC_KADDW, ZYDIS_MNEMONIC_KADDD,
             ZYDIS_MNEMONIC_KADDQ},
            liftMaskBinary<MaskOp::Add>);
  addWidths({ZYDIS_MNEMONIC_KNOTB, ZYDIS_MNEMONIC_KNOTW, ZYDIS_MNEMONIC_KNOTD,
             ZYDIS_MNEMONIC_KNOTQ},
            liftKnot);
  addWidths({ZYDIS_MNEMONIC_KORTESTB, ZYDIS_MNEMONIC_KORTESTW, ZYDIS_MNEMONIC_KORTESTD,
             ZYDIS_MNEMONIC_KORTESTQ},
            liftKortest);
  addWidths({ZYDIS_MNEMONIC_KTESTB, ZYDIS_MNEMONIC_KTESTW, ZYDIS_MNEMONIC_KTESTD,
             ZYDIS_MNEMONIC_KTESTQ},
            liftKtest);
  addWidths({ZYDIS_MNEMONIC_KSHIFTLB, ZYDIS_MNEMONIC_KSHIFTLW, ZYDIS_MNEMONIC_KSHIFTLD,
             ZYDIS_MNEMONIC_KSHIFTLQ},
            liftKshift<true>);
  addWidths({ZYDIS_MNEMONIC_KSHIFTRB, ZYDIS_MNEMONIC_KSHIFTRW, ZYDIS_MNEMONIC_KSHIFTRD,
             ZYDIS_MNEMONIC_KSHIFTRQ},
            liftKshift<false>);
  addWidths({ZYDIS_MNEMONIC_KUNPCKBW, ZYDIS_MNEMONIC_KUNPCKWD, ZYDIS_MNEMONIC_KUNPCKDQ},
            liftKunpck);
}

} // namespace hoist
