// x87 arithmetic (Zydis category X87_ALU): the four operations in all their forms, square
// root, rounding to an integer, partial remainders, scaling and exponent extraction. The
// stack model is described in X87.cpp; results are rounded to nearest at 64-bit precision
// only (the default control word).
#include "Semantics/X87Stack.h"

namespace hoist {
namespace {

enum class X87Op { Add, Sub, SubReversed, Mul, Div, DivReversed };

struct ArithForm {
  ZydisMnemonic mnemonic;
  X87Op op;
  bool pops;
  bool integerSource;
};

constexpr ArithForm ArithForms[] = {
    {ZYDIS_MNEMONIC_FADD, X87Op::Add, false, false},
    {ZYDIS_MNEMONIC_FADDP, X87Op::Add, true, false},
    {ZYDIS_MNEMONIC_FIADD, X87Op::Add, false, true},
    {ZYDIS_MNEMONIC_FSUB, X87Op::Sub, false, false},
    {ZYDIS_MNEMONIC_FSUBP, X87Op::Sub, true, false},
    {ZYDIS_MNEMONIC_FISUB, X87Op::Sub, false, true},
    {ZYDIS_MNEMONIC_FSUBR, X87Op::SubReversed, false, false},
    {ZYDIS_MNEMONIC_FSUBRP, X87Op::SubReversed, true, false},
    {ZYDIS_MNEMONIC_FISUBR, X87Op::SubReversed, false, true},
    {ZYDIS_MNEMONIC_FMUL, X87Op::Mul, false, false},
    {ZYDIS_MNEMONIC_FMULP, X87Op::Mul, true, false},
    {ZYDIS_MNEMONIC_FIMUL, X87Op::Mul, false, true},
    {ZYDIS_MNEMONIC_FDIV, X87Op::Div, false, false},
    {ZYDIS_MNEMONIC_FDIVP, X87Op::Div, true, false},
    {ZYDIS_MNEMONIC_FIDIV, X87Op::Div, false, true},
    {ZYDIS_MNEMONIC_FDIVR, X87Op::DivReversed, false, false},
    {ZYDIS_MNEMONIC_FDIVRP, X87Op::DivReversed, true, false},
    {ZYDIS_MNEMONIC_FIDIVR, X87Op::DivReversed, false, true},
};

/// destination OP source with the x87 NaN rules: a NaN operand propagates (Table 4-7), an
/// invalid operation (inf - inf, 0 * inf, 0 / 0, inf / inf) gives the indefinite.
llvm::Value *compute(LiftContext &ctx, X87Op op, llvm::Value *destination, llvm::Value *source) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *result = nullptr;
  switch (op) {
  case X87Op::Add:
    result = ir.CreateFAdd(destination, source);
    break;
  case X87Op::Sub:
    result = ir.CreateFSub(destination, source);
    break;
  case X87Op::SubReversed:
    result = ir.CreateFSub(source, destination);
    break;
  case X87Op::Mul:
    result = ir.CreateFMul(destination, source);
    break;
  case X87Op::Div:
    result = ir.CreateFDiv(destination, source);
    break;
  case X87Op::DivReversed:
    result = ir.CreateFDiv(source, destination);
    break;
  }
  llvm::Value *invalid = ir.CreateSelect(isNaN(ctx, result), x87Indefinite(ctx), result);
  llvm::Value *nanOperand = ir.CreateFCmpUNO(destination, source);
  return ir.CreateSelect(nanOperand, propagateNaN(ctx, destination, source), invalid);
}

/// fadd st(0), st(i) / st(i), st(0) / m32 / m64, faddp, fiadd m16/m32, and the same for
/// fsub, fsubr, fmul, fdiv, fdivr. The memory forms have ST(0) as destination.
LiftStatus liftArith(LiftContext &ctx, const Instr &instr) {
  const ArithForm *form = nullptr;
  for (const ArithForm &candidate : ArithForms)
    if (candidate.mnemonic == instr.mnemonic)
      form = &candidate;
  if (!form)
    return ctx.unsupported();
  X87Stack stack(ctx);
  unsigned destinationIndex = 0;
  llvm::Value *destination, *source;
  if (instr.op(0).isMem()) {
    destination = stack.read(0);
    source = form->integerSource ? readIntegerSource(ctx, 0) : readFpSource(ctx, stack, 0);
  } else {
    destinationIndex = stIndex(instr.op(0));
    destination = stack.read(destinationIndex);
    source = stack.read(stIndex(instr.op(1)));
  }
  llvm::Value *result = compute(ctx, form->op, destination, source);
  stack.write(destinationIndex, ctx.ir.CreateSelect(stack.underflow(), x87Indefinite(ctx), result));
  if (form->pops)
    stack.pop();
  stack.commit();
  return LiftStatus::Lifted;
}

/// fsqrt: a NaN propagates quieted, a negative number (not -0) gives the indefinite.
LiftStatus liftFsqrt(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *value = stack.read(0);
  llvm::Value *root = ir.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, value);
  llvm::Value *result =
      ir.CreateSelect(isNaN(ctx, value), quietNaN(ctx, value),
                      ir.CreateSelect(isNaN(ctx, root), x87Indefinite(ctx), root));
  stack.write(0, result);
  stack.commit();
  return LiftStatus::Lifted;
}

/// frndint: ST(0) rounded to an integral value by CW.RC.
LiftStatus liftFrndint(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  X87Stack stack(ctx);
  llvm::Value *value = stack.read(0);
  stack.write(0, roundToIntegral(ctx, value, stack.roundingControl()));
  stack.commit();
  return LiftStatus::Lifted;
}

llvm::Value *isInfinite(LiftContext &ctx, llvm::Value *value) {
  return ctx.ir.CreateFCmpOEQ(ctx.ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value),
                              fp80Constant(ctx, 0x7fff, 1ull << 63));
}

/// An extended value as significand * 2^(exponent - 63) with the significand normalized
/// (bit 63 set unless it is zero): denormals get the exponent they would have.
struct Unpacked {
  llvm::Value *sign;        // i1
  llvm::Value *exponent;    // i32, unbiased
  llvm::Value *significand; // i64
};

Unpacked unpack(LiftContext &ctx, llvm::Value *value) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *bits = fp80Bits(ctx, value);
  llvm::Value *significand = ir.CreateTrunc(bits, ctx.intType(64));
  llvm::Value *field =
      ir.CreateAnd(ir.CreateTrunc(ir.CreateLShr(bits, 64), ctx.intType(32)), 0x7fff);
  llvm::Value *shift =
      ir.CreateIntrinsic(llvm::Intrinsic::ctlz, {ctx.intType(64)}, {significand, ir.getFalse()});
  llvm::Value *exponent = ir.CreateSub(
      ir.CreateSub(ir.CreateSelect(ir.CreateICmpEQ(field, ir.getInt32(0)), ir.getInt32(1), field),
                   ir.getInt32(16383)),
      ir.CreateTrunc(shift, ctx.intType(32)));
  return {ir.CreateTrunc(ir.CreateLShr(bits, 79), ir.getInt1Ty()), exponent,
          ir.CreateShl(significand, shift)};
}

/// sign, significand * 2^(exponent - 63) as extended; exact (the value must be representable,
/// a denormal when small).
llvm::Value *pack(LiftContext &ctx, llvm::Value *sign, llvm::Value *exponent,
                  llvm::Value *significand) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *shift =
      ir.CreateIntrinsic(llvm::Intrinsic::ctlz, {ctx.intType(64)}, {significand, ir.getFalse()});
  llvm::Value *normalized = ir.CreateShl(significand, shift);
  llvm::Value *biased = ir.CreateSub(ir.CreateAdd(exponent, ir.getInt32(16383)),
                                     ir.CreateTrunc(shift, ctx.intType(32)));
  // Below the normal range the significand moves right until the exponent field is 0.
  llvm::Value *denormal = ir.CreateICmpSLT(biased, ir.getInt32(1));
  llvm::Value *denormalShift =
      ir.CreateZExt(ir.CreateSelect(denormal, ir.CreateSub(ir.getInt32(1), biased), ir.getInt32(0)),
                    ctx.intType(64));
  llvm::Value *finalSignificand =
      ir.CreateSelect(ir.CreateICmpUGT(denormalShift, ctx.constant(64, 63)), ctx.constant(64, 0),
                      ir.CreateLShr(normalized, denormalShift));
  llvm::Value *field = ir.CreateSelect(denormal, ir.getInt32(0), biased);
  llvm::Value *isZero = ir.CreateICmpEQ(significand, ctx.constant(64, 0));
  field = ir.CreateSelect(isZero, ir.getInt32(0), field);
  finalSignificand = ir.CreateSelect(isZero, ctx.constant(64, 0), finalSignificand);
  llvm::IntegerType *wide = ctx.intType(80);
  llvm::Value *high = ir.CreateOr(ir.CreateShl(ir.CreateZExt(sign, wide), 79),
                                  ir.CreateShl(ir.CreateZExt(field, wide), 64));
  return fp80FromBits(ctx, ir.CreateOr(high, ir.CreateZExt(finalSignificand, wide)));
}

/// fprem and fprem1: the partial remainder of ST(0) / ST(1) (SDM vol. 2, FPREM). With an
/// exponent difference D below 64 the remainder is complete: ST(0) - Q * ST(1) with Q the
/// quotient truncated (fprem) or rounded to nearest even (fprem1), C2 = 0 and C0 C3 C1 =
/// Q2 Q1 Q0. Otherwise C2 = 1, C0 C3 C1 = 0 and the reduction is by a truncated QQ * 2^(D - N),
/// where the CPU's N is (D mod 32) + 32 (read on the CPU; the SDM says "between 32 and 63"). The
/// remainder is always exact, so it is computed on the significands in 128-bit integers.
template <bool Nearest> LiftStatus liftFprem(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *a = stack.read(0);
  llvm::Value *b = stack.read(1);
  Unpacked x = unpack(ctx, a), y = unpack(ctx, b);
  llvm::IntegerType *i128 = ctx.intType(128);
  llvm::Value *d = ir.CreateSub(x.exponent, y.exponent);
  llvm::Value *partial = ir.CreateICmpSGE(d, ir.getInt32(64));
  // fprem1 with D = -1 may still round the quotient up to 1: the divisor is doubled instead.
  llvm::Value *halfScale = Nearest ? ir.CreateICmpEQ(d, ir.getInt32(-1)) : ir.getFalse();
  llvm::Value *trivial = ir.CreateICmpSLT(d, ir.getInt32(Nearest ? -1 : 0));
  llvm::Value *k =
      ir.CreateSelect(partial, ir.CreateOr(ir.CreateAnd(d, 31), 32),
                      ir.CreateSelect(ir.CreateICmpSGT(d, ir.getInt32(0)), d, ir.getInt32(0)));
  llvm::Value *numerator = ir.CreateShl(ir.CreateZExt(x.significand, i128), ir.CreateZExt(k, i128));
  llvm::Value *denominator =
      ir.CreateShl(ir.CreateZExt(y.significand, i128), ir.CreateZExt(halfScale, i128));
  // The divisor is never 0 where the quotient is used (zero divisors are special cases).
  llvm::Value *safeDenominator =
      ir.CreateSelect(ir.CreateICmpEQ(denominator, llvm::ConstantInt::get(i128, 0)),
                      llvm::ConstantInt::get(i128, 1), denominator);
  llvm::Value *quotient = ir.CreateUDiv(numerator, safeDenominator);
  llvm::Value *remainder = ir.CreateURem(numerator, safeDenominator);
  llvm::Value *flip = ir.getFalse();
  if (Nearest) {
    llvm::Value *twice = ir.CreateShl(remainder, 1);
    llvm::Value *odd = ir.CreateTrunc(quotient, ir.getInt1Ty());
    llvm::Value *up = ir.CreateOr(ir.CreateICmpUGT(twice, safeDenominator),
                                  ir.CreateAnd(ir.CreateICmpEQ(twice, safeDenominator), odd));
    flip = ir.CreateAnd(up, ir.CreateNot(partial));
    quotient =
        ir.CreateSelect(flip, ir.CreateAdd(quotient, llvm::ConstantInt::get(i128, 1)), quotient);
    remainder = ir.CreateSelect(flip, ir.CreateSub(safeDenominator, remainder), remainder);
  }
  llvm::Value *reduced = pack(ctx, ir.CreateXor(x.sign, flip), ir.CreateSub(x.exponent, k),
                              ir.CreateTrunc(remainder, ctx.intType(64)));

  // Special operands (SDM vol. 2, FPREM, the table of results): a NaN propagates; an infinite
  // dividend or a zero divisor is invalid; a zero dividend or an infinite divisor leaves
  // ST(0) as it is. None of them reduces anything: Q = 0, C2 = 0.
  llvm::Value *aBits = fp80Bits(ctx, a), *bBits = fp80Bits(ctx, b);
  auto isZero = [&](llvm::Value *bits) {
    return ir.CreateICmpEQ(ir.CreateShl(bits, 1), llvm::ConstantInt::get(bits->getType(), 0));
  };
  llvm::Value *nan = ir.CreateFCmpUNO(a, b);
  llvm::Value *invalid = ir.CreateOr(isInfinite(ctx, a), isZero(bBits));
  llvm::Value *unchanged = ir.CreateOr(isZero(aBits), isInfinite(ctx, b));
  llvm::Value *special = ir.CreateOr(ir.CreateOr(nan, invalid), unchanged);
  // An empty operand beats a NaN one, which beats an invalid pair.
  llvm::Value *result = ir.CreateSelect(
      ir.CreateOr(stack.underflow(), ir.CreateAnd(invalid, ir.CreateNot(nan))), x87Indefinite(ctx),
      ir.CreateSelect(nan, propagateNaN(ctx, a, b),
                      ir.CreateSelect(ir.CreateOr(unchanged, trivial), a, reduced)));
  llvm::Value *reducedAny = ir.CreateAnd(ir.CreateNot(special), ir.CreateNot(trivial));
  // An incomplete reduction reports no quotient bits: C0 C3 C1 are cleared (seen on the CPU).
  llvm::Value *q = ir.CreateSelect(ir.CreateAnd(reducedAny, ir.CreateNot(partial)),
                                   ir.CreateTrunc(quotient, ctx.intType(8)), ctx.constant(8, 0));
  auto qBit = [&](unsigned n) { return ir.CreateTrunc(ir.CreateLShr(q, n), ir.getInt1Ty()); };
  stack.write(0, result);
  // A NaN result (stack underflow, invalid operation, NaN operand) leaves C0 and C3 as they
  // were and clears C1 and C2 (seen on the CPU).
  llvm::Value *nanResult = ir.CreateOr(nan, invalid);
  stack.setCondition(X87Condition::C2, ir.CreateAnd(reducedAny, partial));
  stack.setCondition(X87Condition::C0,
                     ir.CreateSelect(nanResult, stack.condition(X87Condition::C0), qBit(2)));
  stack.setCondition(X87Condition::C3,
                     ir.CreateSelect(nanResult, stack.condition(X87Condition::C3), qBit(1)));
  stack.setCondition(X87Condition::C1, qBit(0));
  stack.commit();
  return LiftStatus::Lifted;
}

/// fscale: ST(0) * 2^trunc(ST(1)) (SDM vol. 2, FSCALE), rounded once, as ldexp does. 0 times
/// 2^+inf and inf times 2^-inf are invalid; other infinite scales give inf or 0.
LiftStatus liftFscale(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *value = stack.read(0);
  llvm::Value *scale = stack.read(1);
  // Beyond +-2^16 every finite result overflows or underflows whatever the value is.
  llvm::Value *limit = fp80Constant(ctx, 0x400f, 1ull << 63);
  llvm::Value *truncated = ir.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, scale);
  llvm::Value *clamped =
      ir.CreateSelect(ir.CreateFCmpOGT(truncated, limit), limit,
                      ir.CreateSelect(ir.CreateFCmpOLT(truncated, ir.CreateFNeg(limit)),
                                      ir.CreateFNeg(limit), truncated));
  llvm::Value *exponent = ir.CreateFPToSI(clamped, ir.getInt32Ty());
  llvm::Value *scaled = ir.CreateIntrinsic(llvm::Intrinsic::ldexp, {fp80Type(ctx), ir.getInt32Ty()},
                                           {value, exponent});
  llvm::Value *zero = fp80Constant(ctx, 0, 0);
  llvm::Value *scaleNegative = ir.CreateFCmpOLT(scale, zero);
  llvm::Value *invalid =
      ir.CreateAnd(isInfinite(ctx, scale), ir.CreateSelect(scaleNegative, isInfinite(ctx, value),
                                                           ir.CreateFCmpOEQ(value, zero)));
  llvm::Value *result =
      ir.CreateSelect(ir.CreateFCmpUNO(value, scale), propagateNaN(ctx, value, scale),
                      ir.CreateSelect(invalid, x87Indefinite(ctx), scaled));
  stack.write(0, ir.CreateSelect(stack.underflow(), x87Indefinite(ctx), result));
  stack.commit();
  return LiftStatus::Lifted;
}

/// fxtract: ST(0) becomes its unbiased exponent and the significand (exponent 0, same sign)
/// is pushed (SDM vol. 2, FXTRACT). A zero gives -inf and the zero, an infinity +inf and
/// itself, a NaN itself twice, quieted.
LiftStatus liftFxtract(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *value = stack.read(0);
  Unpacked x = unpack(ctx, value);
  llvm::Value *bits = fp80Bits(ctx, value);
  llvm::IntegerType *wide = ctx.intType(80);
  llvm::Value *significand = fp80FromBits(
      ctx, ir.CreateOr(ir.CreateOr(ir.CreateShl(ir.CreateZExt(x.sign, wide), 79),
                                   ir.CreateShl(llvm::ConstantInt::get(wide, 0x3fff), 64)),
                       ir.CreateZExt(x.significand, wide)));
  llvm::Value *exponent = ir.CreateSIToFP(x.exponent, fp80Type(ctx));
  llvm::Value *isZero = ir.CreateICmpEQ(ir.CreateShl(bits, 1), llvm::ConstantInt::get(wide, 0));
  llvm::Value *nan = isNaN(ctx, value);
  llvm::Value *infinite = isInfinite(ctx, value);
  llvm::Value *quiet = quietNaN(ctx, value);
  llvm::Value *special = ir.CreateOr(ir.CreateOr(nan, infinite), isZero);
  llvm::Value *specialExponent =
      ir.CreateSelect(nan, quiet,
                      ir.CreateSelect(infinite, fp80Constant(ctx, 0x7fff, 1ull << 63),
                                      fp80Constant(ctx, 0xffff, 1ull << 63)));
  llvm::Value *specialSignificand = ir.CreateSelect(nan, quiet, value);
  // With ST(7) valid the push overflows, and both results are the indefinite (seen on the
  // CPU).
  llvm::Value *overflow = ir.CreateNot(stack.isEmpty(7));
  stack.write(0, ir.CreateSelect(overflow, x87Indefinite(ctx),
                                 ir.CreateSelect(special, specialExponent, exponent)));
  stack.push(ir.CreateSelect(special, specialSignificand, significand));
  stack.commit();
  return LiftStatus::Lifted;
}

} // namespace

void registerX87Arithmetic(SemanticTable &table) {
  for (const ArithForm &form : ArithForms)
    table.add(form.mnemonic, liftArith);
  table.add(ZYDIS_MNEMONIC_FSQRT, liftFsqrt);
  table.add(ZYDIS_MNEMONIC_FRNDINT, liftFrndint);
  table.add(ZYDIS_MNEMONIC_FPREM, liftFprem<false>);
  table.add(ZYDIS_MNEMONIC_FPREM1, liftFprem<true>);
  table.add(ZYDIS_MNEMONIC_FSCALE, liftFscale);
  table.add(ZYDIS_MNEMONIC_FXTRACT, liftFxtract);
}

} // namespace hoist
