// Static rounding ({rd-sae}, {ru-sae}, {rz-sae}) from the round-to-nearest result and the
// sign of its exact error. Every error-free transformation here is exact only inside a range;
// where an operand or result lies outside it, the operands are first scaled by powers of two
// (exact) so that it holds. The reasoning for each bound is in docs/DESIGN.md, "Static
// rounding"; the fused multiply-add is in DirectedFma.cpp.
#include "Semantics/DirectedRounding.h"
#include "Semantics/DirectedRoundingParts.h"

#include <cmath>

namespace hoist::fp {

RoundingMode staticRounding(const Instr &instr) {
  if (!instr.evex.embeddedRounding)
    return RoundingMode::Nearest;
  switch (instr.evex.staticRounding) {
  case ZYDIS_ROUNDING_MODE_RD:
    return RoundingMode::Down;
  case ZYDIS_ROUNDING_MODE_RU:
    return RoundingMode::Up;
  case ZYDIS_ROUNDING_MODE_RZ:
    return RoundingMode::TowardZero;
  default:   // {rn-sae}, {sae}
    return RoundingMode::Nearest;
  }
}

bool honoursStaticRounding(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
  case ZYDIS_MNEMONIC_VADDPS: case ZYDIS_MNEMONIC_VADDPD:
  case ZYDIS_MNEMONIC_VADDSS: case ZYDIS_MNEMONIC_VADDSD:
  case ZYDIS_MNEMONIC_VSUBPS: case ZYDIS_MNEMONIC_VSUBPD:
  case ZYDIS_MNEMONIC_VSUBSS: case ZYDIS_MNEMONIC_VSUBSD:
  case ZYDIS_MNEMONIC_VMULPS: case ZYDIS_MNEMONIC_VMULPD:
  case ZYDIS_MNEMONIC_VMULSS: case ZYDIS_MNEMONIC_VMULSD:
  case ZYDIS_MNEMONIC_VDIVPS: case ZYDIS_MNEMONIC_VDIVPD:
  case ZYDIS_MNEMONIC_VDIVSS: case ZYDIS_MNEMONIC_VDIVSD:
  case ZYDIS_MNEMONIC_VSQRTPS: case ZYDIS_MNEMONIC_VSQRTPD:
  case ZYDIS_MNEMONIC_VSQRTSS: case ZYDIS_MNEMONIC_VSQRTSD:
  // Integer to floating point.
  case ZYDIS_MNEMONIC_VCVTSI2SS: case ZYDIS_MNEMONIC_VCVTSI2SD:
  case ZYDIS_MNEMONIC_VCVTUSI2SS: case ZYDIS_MNEMONIC_VCVTUSI2SD:
  case ZYDIS_MNEMONIC_VCVTDQ2PS: case ZYDIS_MNEMONIC_VCVTUDQ2PS:
  case ZYDIS_MNEMONIC_VCVTQQ2PS: case ZYDIS_MNEMONIC_VCVTQQ2PD:
  case ZYDIS_MNEMONIC_VCVTUQQ2PS: case ZYDIS_MNEMONIC_VCVTUQQ2PD:
  // Floating point to integer (the mode picks the rounding to integral).
  case ZYDIS_MNEMONIC_VCVTSS2SI: case ZYDIS_MNEMONIC_VCVTSD2SI:
  case ZYDIS_MNEMONIC_VCVTSS2USI: case ZYDIS_MNEMONIC_VCVTSD2USI:
  case ZYDIS_MNEMONIC_VCVTPS2DQ: case ZYDIS_MNEMONIC_VCVTPD2DQ:
  case ZYDIS_MNEMONIC_VCVTPS2UDQ: case ZYDIS_MNEMONIC_VCVTPD2UDQ:
  case ZYDIS_MNEMONIC_VCVTPS2QQ: case ZYDIS_MNEMONIC_VCVTPD2QQ:
  case ZYDIS_MNEMONIC_VCVTPS2UQQ: case ZYDIS_MNEMONIC_VCVTPD2UQQ:
  // Double to float.
  case ZYDIS_MNEMONIC_VCVTSD2SS: case ZYDIS_MNEMONIC_VCVTPD2PS:
    return true;
  default:
    return isFusedMultiplyAdd(mnemonic);
  }
}

ErrorSign signOf(LiftContext &ctx, llvm::Value *error) {
  llvm::Value *zero = llvm::Constant::getNullValue(error->getType());
  return {ctx.ir.CreateFCmpOGT(error, zero), ctx.ir.CreateFCmpOLT(error, zero)};
}

llvm::Value *roundFromNearest(LiftContext &ctx, RoundingMode mode, llvm::Value *nearest,
                              ErrorSign sign) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *bits = toBits(ctx, nearest);
  llvm::Value *one = llvm::ConstantInt::get(bits->getType(), 1);
  // On the bits, +1 moves away from zero and -1 toward it, whatever the sign; +inf - 1 is
  // the largest finite value, +0 + 1 the smallest denormal. A nearest -0 never has an exact
  // value above it, nor +0 one below (it would have rounded to the other zero).
  llvm::Value *away = ir.CreateAdd(bits, one);
  llvm::Value *toward = ir.CreateSub(bits, one);
  llvm::Value *negative = ir.CreateICmpSLT(bits, llvm::Constant::getNullValue(bits->getType()));
  llvm::Value *step = nullptr, *moved = nullptr;
  switch (mode) {
  case RoundingMode::Nearest:
    return nearest;
  case RoundingMode::Up:
    step = sign.above;
    moved = ir.CreateSelect(negative, toward, away);
    break;
  case RoundingMode::Down:
    step = sign.below;
    moved = ir.CreateSelect(negative, away, toward);
    break;
  case RoundingMode::TowardZero:
    step = ir.CreateSelect(negative, sign.above, sign.below);
    moved = toward;
    break;
  }
  return fromBits(ctx, ir.CreateSelect(step, moved, bits), nearest->getType());
}

llvm::Value *zeroSumSign(LiftContext &ctx, RoundingMode mode, llvm::Value *rounded,
                         ErrorSign sign, llvm::Value *first, llvm::Value *second) {
  if (mode != RoundingMode::Down)
    return rounded;
  LiftBuilder &ir = ctx.ir;
  llvm::Value *exactZero = ir.CreateAnd(
      ir.CreateFCmpOEQ(rounded, llvm::Constant::getNullValue(rounded->getType())),
      ir.CreateNot(ir.CreateOr(sign.above, sign.below)));
  llvm::Type *bitsType = fp::bitsType(ctx, rounded->getType());
  llvm::Value *signBit = llvm::ConstantInt::get(
      bitsType, llvm::APInt::getSignMask(bitsType->getScalarSizeInBits()));
  llvm::Value *zero =
      ir.CreateAnd(ir.CreateOr(toBits(ctx, first), toBits(ctx, second)), signBit);
  return ir.CreateSelect(exactZero, fromBits(ctx, zero, rounded->getType()), rounded);
}

namespace {

/// a + b - sum exactly, by Fast2Sum on the operands ordered by magnitude (Dekker 1971): in
/// round to nearest both subtractions are exact for any finite sum, denormals included. An
/// overflowed sum gives an infinity of the other sign, an infinite operand a NaN.
llvm::Value *sumError(LiftContext &ctx, llvm::Value *a, llvm::Value *b, llvm::Value *sum) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *aLarger = ir.CreateFCmpOGE(magnitude(ctx, a), magnitude(ctx, b));
  llvm::Value *larger = ir.CreateSelect(aLarger, a, b);
  llvm::Value *smaller = ir.CreateSelect(aLarger, b, a);
  return ir.CreateFSub(smaller, ir.CreateFSub(sum, larger));
}

/// The sign of a*b - p, p = RN(a*b). Floats: the product is exact in double and the
/// difference, a nonzero multiple of 2^-298, keeps its sign when rounded. Doubles:
/// fma(a, b, -p) is a nonzero multiple of ulp(a)*ulp(b) > |p|*2^-106, representable unless
/// |p| < 2^-968; below 2^-910 the smaller operand (under 2^-455) and p are scaled by 2^1200,
/// which keeps them finite and lifts the error's quantum (2^-2148 at worst) to 2^-948.
ErrorSign productErrorSign(LiftContext &ctx, llvm::Value *a, llvm::Value *b, llvm::Value *p) {
  LiftBuilder &ir = ctx.ir;
  if (isSingle(p->getType()))
    return signOf(ctx, ir.CreateFSub(ir.CreateFMul(widened(ctx, a), widened(ctx, b)),
                                     widened(ctx, p)));
  llvm::Value *small = ir.CreateFCmpOLT(magnitude(ctx, p), powerOfTwo(p->getType(), -910));
  llvm::Value *aSmaller = ir.CreateFCmpOLE(magnitude(ctx, a), magnitude(ctx, b));
  llvm::Value *smaller = ir.CreateSelect(aSmaller, a, b);
  llvm::Value *larger = ir.CreateSelect(aSmaller, b, a);
  llvm::Value *x = ir.CreateSelect(small, scaled(ctx, smaller, 1200), smaller);
  llvm::Value *product = ir.CreateSelect(small, scaled(ctx, p, 1200), p);
  return signOf(ctx, fusedMultiplyAdd(ctx, x, larger, ir.CreateFNeg(product)));
}

/// The sign of a/b - q: that of the remainder a - q*b times b's. Floats: the remainder in
/// double, a nonzero multiple of 2^-298. Doubles: fma(-q, b, a) is a multiple of
/// min(ulp(a), ulp(q)*ulp(b)), at least 2^-1066 when |a| >= 2^-960 (q normal: ulp(q)*ulp(b) >
/// |a|*2^-107; q denormal: |b| > 2^62). Below, a is scaled by 2^1200 and so is q*b: q alone
/// when |b| >= 1 (|q| < 2^-959), else q and b by 2^600 each (|q| < 2^114).
ErrorSign quotientErrorSign(LiftContext &ctx, llvm::Value *a, llvm::Value *b, llvm::Value *q) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *remainder;
  if (isSingle(q->getType())) {
    remainder = fusedMultiplyAdd(ctx, ir.CreateFNeg(widened(ctx, q)), widened(ctx, b),
                                 widened(ctx, a));
  } else {
    llvm::Type *type = q->getType();
    llvm::Value *tiny = ir.CreateFCmpOLT(magnitude(ctx, a), powerOfTwo(type, -960));
    llvm::Value *bLarge = ir.CreateFCmpOGE(magnitude(ctx, b), powerOfTwo(type, 0));
    llvm::Value *scaledQ =
        ir.CreateSelect(bLarge, scaled(ctx, q, 1200), scaled(ctx, q, 600));
    llvm::Value *scaledB = ir.CreateSelect(bLarge, b, scaled(ctx, b, 600));
    remainder = fusedMultiplyAdd(ctx, ir.CreateFNeg(ir.CreateSelect(tiny, scaledQ, q)),
                                 ir.CreateSelect(tiny, scaledB, b),
                                 ir.CreateSelect(tiny, scaled(ctx, a, 1200), a));
  }
  ErrorSign sign = signOf(ctx, remainder);
  llvm::Value *negativeB =
      ir.CreateFCmpOLT(b, llvm::Constant::getNullValue(b->getType()));
  return {ir.CreateSelect(negativeB, sign.below, sign.above),
          ir.CreateSelect(negativeB, sign.above, sign.below)};
}

/// The sign of sqrt(a) - r: that of a - r*r. Floats: in double, as for the product.
/// Doubles: fma(-r, r, a) is a multiple of min(ulp(a), ulp(r)^2), ulp(r)^2 > a*2^-106; below
/// a = 2^-900, a is scaled by 2^1200 and r by 2^600 (ulp(r)^2 >= 2^-1178 there, r being
/// at least 2^-537).
ErrorSign rootErrorSign(LiftContext &ctx, llvm::Value *a, llvm::Value *r) {
  LiftBuilder &ir = ctx.ir;
  if (isSingle(r->getType())) {
    llvm::Value *wideR = widened(ctx, r);
    return signOf(ctx, fusedMultiplyAdd(ctx, ir.CreateFNeg(wideR), wideR, widened(ctx, a)));
  }
  llvm::Value *small = ir.CreateFCmpOLT(magnitude(ctx, a), powerOfTwo(a->getType(), -900));
  llvm::Value *root = ir.CreateSelect(small, scaled(ctx, r, 600), r);
  llvm::Value *square = ir.CreateSelect(small, scaled(ctx, a, 1200), a);
  return signOf(ctx, fusedMultiplyAdd(ctx, ir.CreateFNeg(root), root, square));
}

} // namespace

llvm::Value *roundedArithmetic(LiftContext &ctx, Arith op, llvm::Value *a, llvm::Value *b,
                               RoundingMode mode) {
  if (mode == RoundingMode::Nearest || op == Arith::Min || op == Arith::Max)
    return arithmetic(ctx, op, a, b);
  LiftBuilder &ir = ctx.ir;
  llvm::Value *result = nullptr;
  switch (op) {
  case Arith::Add:
  case Arith::Sub: {
    llvm::Value *addend = op == Arith::Sub ? ir.CreateFNeg(b) : b;
    llvm::Value *sum = ir.CreateFAdd(a, addend);
    ErrorSign sign = signOf(ctx, sumError(ctx, a, addend, sum));
    result = zeroSumSign(ctx, mode, roundFromNearest(ctx, mode, sum, sign), sign, a, addend);
    break;
  }
  case Arith::Mul: {
    llvm::Value *product = ir.CreateFMul(a, b);
    result = roundFromNearest(ctx, mode, product, productErrorSign(ctx, a, b, product));
    break;
  }
  case Arith::Div: {
    llvm::Value *quotient = ir.CreateFDiv(a, b);
    result = roundFromNearest(ctx, mode, quotient, quotientErrorSign(ctx, a, b, quotient));
    break;
  }
  case Arith::Sqrt: {
    llvm::Value *root = ir.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, b);
    return x86UnaryNaN(ctx, b, roundFromNearest(ctx, mode, root, rootErrorSign(ctx, b, root)));
  }
  default:
    break;
  }
  return x86BinaryNaN(ctx, a, b, result);
}

llvm::Value *roundedIntegerToFloat(LiftContext &ctx, llvm::Value *integer, llvm::Type *type,
                                   bool isUnsigned, RoundingMode mode) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *nearest =
      isUnsigned ? ir.CreateUIToFP(integer, type) : ir.CreateSIToFP(integer, type);
  if (mode == RoundingMode::Nearest)
    return nearest;
  // The nearest value is integral; back in the integer domain it compares exactly, unless it
  // is 2^(w-1) (2^w unsigned), just past the largest integer, which is then above the exact.
  unsigned bits = integer->getType()->getScalarSizeInBits();
  llvm::Value *outOfRange = ir.CreateFCmpOGE(
      nearest, powerOfTwo(type, isUnsigned ? int(bits) : int(bits) - 1));
  auto saturating = isUnsigned ? llvm::Intrinsic::fptoui_sat : llvm::Intrinsic::fptosi_sat;
  llvm::Value *back = ir.CreateIntrinsic(saturating, {integer->getType(), type}, {nearest});
  llvm::Value *greater =
      isUnsigned ? ir.CreateICmpUGT(integer, back) : ir.CreateICmpSGT(integer, back);
  llvm::Value *less =
      isUnsigned ? ir.CreateICmpULT(integer, back) : ir.CreateICmpSLT(integer, back);
  ErrorSign sign{ir.CreateAnd(ir.CreateNot(outOfRange), greater), ir.CreateOr(outOfRange, less)};
  return roundFromNearest(ctx, mode, nearest, sign);
}

llvm::Value *roundedNarrowing(LiftContext &ctx, llvm::Value *value, llvm::Type *type,
                              RoundingMode mode) {
  llvm::Value *nearest = ctx.ir.CreateFPTrunc(value, type);
  if (mode == RoundingMode::Nearest)
    return nearest;
  // Widening back is exact; an overflow to infinity compares above the finite value.
  llvm::Value *back = ctx.ir.CreateFPExt(nearest, value->getType());
  ErrorSign sign{ctx.ir.CreateFCmpOGT(value, back), ctx.ir.CreateFCmpOLT(value, back)};
  return roundFromNearest(ctx, mode, nearest, sign);
}

} // namespace hoist::fp
