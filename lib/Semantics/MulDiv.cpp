// Semantics of one-operand multiply and divide (Zydis category BINARY): mul, imul r/m, div,
// idiv. They work on the accumulator pair: ax for 8-bit operands (al, ah), else rdx:rax at the
// operand size (SDM vol. 2, MUL/IMUL/DIV/IDIV).
#include "Semantics/Semantics.h"

namespace hoist {

LiftStatus liftImul(LiftContext &ctx, const Instr &instr);   // Binary.cpp: 2 and 3 operands
void writeMultiplyFlags(LiftContext &ctx, llvm::Value *truncated, llvm::Value *fits);

namespace {

/// The low and high halves of the accumulator pair for an operand of `bits`.
struct AccumulatorPair {
  ZydisRegister low, high;
};

AccumulatorPair accumulatorPair(unsigned bits) {
  switch (bits) {
  case 8:
    return {accumulatorRegister(bits), ZYDIS_REGISTER_AH};
  case 16:
    return {accumulatorRegister(bits), ZYDIS_REGISTER_DX};
  case 32:
    return {accumulatorRegister(bits), ZYDIS_REGISTER_EDX};
  default:
    return {accumulatorRegister(bits), ZYDIS_REGISTER_RDX};
  }
}

/// mul and one-operand imul: high:low = accumulator * source in twice the operand size; CF and
/// OF say whether the high half is needed.
template <bool IsSigned>
LiftStatus liftMultiplyAccumulator(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  AccumulatorPair pair = accumulatorPair(bits);
  llvm::IntegerType *wide = ctx.intType(bits * 2);
  auto extend = [&](llvm::Value *v) {
    return IsSigned ? ir.CreateSExt(v, wide) : ir.CreateZExt(v, wide);
  };
  llvm::Value *product = ir.CreateMul(extend(ctx.readReg(pair.low)), extend(ctx.readOperand(0)));
  llvm::Value *low = ir.CreateTrunc(product, ctx.intType(bits));
  llvm::Value *high = ir.CreateTrunc(ir.CreateLShr(product, bits), ctx.intType(bits));
  llvm::Value *fits = ir.CreateICmpEQ(extend(low), product);
  ctx.writeReg(pair.low, low);
  ctx.writeReg(pair.high, high);
  writeMultiplyFlags(ctx, low, fits);
  return LiftStatus::Lifted;
}

LiftStatus liftImulAnyForm(LiftContext &ctx, const Instr &instr) {
  if (instr.explicitCount == 1)
    return liftMultiplyAccumulator<true>(ctx, instr);
  return liftImul(ctx, instr);
}

/// div, idiv: (high:low) / source. A zero divisor or a quotient that does not fit the operand
/// size raises #DE, lifted as __hoist_trap at the instruction; no register changes then.
/// Every flag is undefined afterwards; Hoist leaves them unchanged.
template <bool IsSigned>
LiftStatus liftDivide(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  AccumulatorPair pair = accumulatorPair(bits);
  llvm::IntegerType *narrow = ctx.intType(bits);
  llvm::IntegerType *wide = ctx.intType(bits * 2);
  llvm::Value *divisor = ctx.readOperand(0);
  llvm::Value *dividend =
      ir.CreateOr(ir.CreateShl(ir.CreateZExt(ctx.readReg(pair.high), wide), bits),
                  ir.CreateZExt(ctx.readReg(pair.low), wide));
  llvm::Value *wideDivisor = IsSigned ? ir.CreateSExt(divisor, wide) : ir.CreateZExt(divisor, wide);
  llvm::Value *here = ir.getInt64(instr.address);

  // Stage 1: what would make the wide division itself undefined in IR.
  llvm::Value *fault = ir.CreateICmpEQ(divisor, llvm::ConstantInt::get(narrow, 0));
  if (IsSigned) {
    llvm::Value *minimum = llvm::ConstantInt::get(wide, llvm::APInt::getSignedMinValue(bits * 2));
    fault = ir.CreateOr(fault, ir.CreateAnd(ir.CreateICmpEQ(dividend, minimum),
                                            ir.CreateICmpEQ(divisor, llvm::ConstantInt::getAllOnesValue(narrow))));
  }
  ctx.control().trapIf(fault, here, HOIST_EXCEPTION_DE);

  llvm::Value *quotient = IsSigned ? ir.CreateSDiv(dividend, wideDivisor) : ir.CreateUDiv(dividend, wideDivisor);
  llvm::Value *remainder = IsSigned ? ir.CreateSRem(dividend, wideDivisor) : ir.CreateURem(dividend, wideDivisor);
  llvm::Value *narrowQuotient = ir.CreateTrunc(quotient, narrow);
  // Stage 2: a quotient that does not fit the destination.
  llvm::Value *back = IsSigned ? ir.CreateSExt(narrowQuotient, wide) : ir.CreateZExt(narrowQuotient, wide);
  ctx.control().trapIf(ir.CreateICmpNE(back, quotient), here, HOIST_EXCEPTION_DE);

  ctx.writeReg(pair.low, narrowQuotient);
  ctx.writeReg(pair.high, ir.CreateTrunc(remainder, narrow));
  return LiftStatus::Lifted;
}

} // namespace

void registerMulDiv(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_MUL, liftMultiplyAccumulator<false>);
  table.add(ZYDIS_MNEMONIC_IMUL, liftImulAnyForm);
  table.add(ZYDIS_MNEMONIC_DIV, liftDivide<false>);
  table.add(ZYDIS_MNEMONIC_IDIV, liftDivide<true>);
}

} // namespace hoist
