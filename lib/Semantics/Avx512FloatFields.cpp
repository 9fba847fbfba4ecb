// AVX-512 floating point computed from the fields of the value (sign, exponent, significand):
// vfpclassps/pd/ss/sd (classes into an opmask), vgetexp, vgetmant, vrndscale, vreduce,
// vscalef and vrange (ps/pd/ss/sd), packed and scalar, with masking, zeroing and broadcasts
// from Avx512Operands. Exact: vrndscale rounds to an integral value exactly, vreduce's
// subtraction is rounded in its own mode and vscalef's product once, to nearest. MXCSR.DAZ is
// not modelled (DESIGN.md), so denormals are taken as themselves.
#include "Semantics/Avx512Operands.h"
#include "Semantics/FloatRules.h"
#include "Semantics/SimdHelpers.h"

#include <cmath>

namespace hoist {
namespace {

using namespace avx512;

llvm::Type *floatElement(LiftContext &ctx, bool isDouble) {
  return isDouble ? ctx.ir.getDoubleTy() : ctx.ir.getFloatTy();
}

/// The fields of IEEE values (a vector or a scalar of float or double), as integers of their
/// width; `unbiased` and `fraction` are those of the value normalized, so a denormal's
/// exponent is below the smallest normal one and its fraction has the leading 1 removed.
struct Fields {
  llvm::Value *bits, *negative, *exponent, *significand;
  llvm::Value *unbiased, *fraction;
  unsigned width, significandBits, bias;
};

Fields fieldsOf(LiftContext &ctx, llvm::Value *value) {
  auto &ir = ctx.ir;
  Fields f;
  f.bits = fp::toBits(ctx, value);
  f.width = value->getType()->getScalarSizeInBits();
  f.significandBits = f.width == 64 ? 52 : 23;
  f.bias = f.width == 64 ? 1023 : 127;
  llvm::Type *type = f.bits->getType();
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(type, v); };
  llvm::Value *zero = llvm::Constant::getNullValue(type);
  f.negative = ir.CreateICmpSLT(f.bits, zero);
  unsigned exponentBits = f.width - 1 - f.significandBits;
  f.exponent = ir.CreateAnd(ir.CreateLShr(f.bits, constant(f.significandBits)),
                            constant((uint64_t(1) << exponentBits) - 1));
  llvm::Value *fractionMask = constant((uint64_t(1) << f.significandBits) - 1);
  f.significand = ir.CreateAnd(f.bits, fractionMask);
  // A denormal is significand * 2^(1 - bias - significandBits): its highest set bit gives the
  // exponent, and shifting that bit to the implicit position normalizes it.
  llvm::Value *highestBit = ir.CreateSub(
      constant(f.width - 1),
      ir.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, f.significand, ir.getFalse()));
  llvm::Value *denormal = ir.CreateICmpEQ(f.exponent, zero);
  f.unbiased = ir.CreateSelect(denormal,
                               ir.CreateSub(highestBit, constant(f.bias - 1 + f.significandBits)),
                               ir.CreateSub(f.exponent, constant(f.bias)));
  llvm::Value *shift = ir.CreateSub(constant(f.significandBits), highestBit);
  f.fraction = ir.CreateSelect(
      denormal, ir.CreateAnd(ir.CreateShl(f.significand, shift), fractionMask), f.significand);
  return f;
}

/// The classes of imm8 (SDM vol. 2, VFPCLASSPS, table 5-9) that `value` is in, OR-ed:
/// 0 QNaN, 1 +0, 2 -0, 3 +inf, 4 -inf, 5 denormal, 6 negative finite (not zero), 7 SNaN.
llvm::Value *inClasses(LiftContext &ctx, llvm::Value *value, unsigned imm) {
  auto &ir = ctx.ir;
  Fields f = fieldsOf(ctx, value);
  llvm::Type *type = f.bits->getType();
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(type, v); };
  llvm::Value *zero = llvm::Constant::getNullValue(type);
  llvm::Value *allOnes = ir.CreateICmpEQ(
      f.exponent, constant((uint64_t(1) << (f.width - 1 - f.significandBits)) - 1));
  llvm::Value *allZeros = ir.CreateICmpEQ(f.exponent, zero);
  llvm::Value *zeroSignificand = ir.CreateICmpEQ(f.significand, zero);
  llvm::Value *quietBit = ir.CreateICmpNE(
      ir.CreateAnd(f.significand, constant(uint64_t(1) << (f.significandBits - 1))), zero);
  llvm::Value *positive = ir.CreateNot(f.negative);
  llvm::Value *isZero = ir.CreateAnd(allZeros, zeroSignificand);
  llvm::Value *isInf = ir.CreateAnd(allOnes, zeroSignificand);
  llvm::Value *classes[8] = {
      ir.CreateAnd(allOnes, quietBit),
      ir.CreateAnd(positive, isZero),
      ir.CreateAnd(f.negative, isZero),
      ir.CreateAnd(positive, isInf),
      ir.CreateAnd(f.negative, isInf),
      ir.CreateAnd(allZeros, ir.CreateNot(zeroSignificand)),
      ir.CreateAnd(f.negative, ir.CreateNot(ir.CreateOr(allOnes, isZero))),
      ir.CreateAnd(allOnes, ir.CreateNot(ir.CreateOr(zeroSignificand, quietBit))),
  };
  llvm::Value *result = ir.CreateICmpNE(zero, zero);   // false, of the right shape
  for (unsigned i = 0; i < 8; ++i)
    if (imm >> i & 1)
      result = ir.CreateOr(result, classes[i]);
  return result;
}

/// vfpclassps/pd k2 {k1}, zmm/m512/bcst, imm8: bit i of k2 set where element i is in a class
/// imm8 names and k1 enables it (SDM vol. 2, VFPCLASSPS).
template <bool IsDouble> LiftStatus liftClassPacked(LiftContext &ctx, const Instr &instr) {
  unsigned imm = unsigned(simd::immediate(instr, dataOperand(instr, 2)));
  llvm::Value *source = readSource(ctx, dataOperand(instr, 1), floatElement(ctx, IsDouble));
  writeMaskResult(ctx, inClasses(ctx, source, imm));
  return LiftStatus::Lifted;
}

/// vfpclassss/sd k2 {k1}, xmm/m32, imm8: bit 0 of k2 for the low element, the rest cleared.
template <bool IsDouble> LiftStatus liftClassScalar(LiftContext &ctx, const Instr &instr) {
  unsigned imm = unsigned(simd::immediate(instr, dataOperand(instr, 2)));
  llvm::Value *source = readElements(ctx, dataOperand(instr, 1), floatElement(ctx, IsDouble), 1);
  writeMaskResult(ctx, inClasses(ctx, source, imm));
  return LiftStatus::Lifted;
}

/// getexp(x) = floor(log2(|x|)) as a value of x's type (SDM vol. 2, VGETEXPPS): the unbiased
/// exponent of a normal value, that of the normalized significand of a denormal; +inf for
/// ±inf, -inf for ±0, the source quieted for a NaN.
llvm::Value *exponentOf(LiftContext &ctx, llvm::Value *value) {
  auto &ir = ctx.ir;
  Fields f = fieldsOf(ctx, value);
  llvm::Type *type = f.bits->getType(), *fpType = value->getType();
  llvm::Value *zero = llvm::Constant::getNullValue(type);
  llvm::Value *result = ir.CreateSIToFP(f.unbiased, fpType);
  const llvm::fltSemantics &semantics = fpType->getScalarType()->getFltSemantics();
  auto special = [&](const llvm::APFloat &v) { return llvm::ConstantFP::get(fpType, v); };
  llvm::Value *isZero = ir.CreateICmpEQ(ir.CreateOr(f.exponent, f.significand), zero);
  result = ir.CreateSelect(isZero, special(llvm::APFloat::getInf(semantics, true)), result);
  llvm::Value *isInf = ir.CreateFCmpOEQ(ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value),
                                        special(llvm::APFloat::getInf(semantics)));
  result = ir.CreateSelect(isInf, special(llvm::APFloat::getInf(semantics)), result);
  return fp::x86UnaryNaN(ctx, value, result);
}

/// vgetexpps/pd zmm1 {k1}{z}, zmm2/m512/bcst.
template <bool IsDouble> LiftStatus liftGetExpPacked(LiftContext &ctx, const Instr &) {
  return liftOneSource(ctx, floatElement(ctx, IsDouble),
                       [&](llvm::Value *x) { return exponentOf(ctx, x); });
}

/// getmant(x): x's normalized significand in the interval of imm8[1:0] ([1, 2), [1/2, 2),
/// [1/2, 1), [3/4, 3/2)) with the sign imm8[3:2] asks for: x's (00) or + (01); with bit 3, a
/// negative x other than -0 gives the default NaN. ±0 and ±inf give 1.0 with that sign, a
/// NaN the source quieted (SDM vol. 2, VGETMANTPS, GetNormalizedMantissa; the order of the
/// zero, sign and infinity checks as the CPU shows it).
llvm::Value *mantissaOf(LiftContext &ctx, llvm::Value *value, unsigned imm) {
  auto &ir = ctx.ir;
  Fields f = fieldsOf(ctx, value);
  llvm::Type *type = f.bits->getType(), *fpType = value->getType();
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(type, v); };
  llvm::Value *zero = llvm::Constant::getNullValue(type);
  llvm::Value *exponent = constant(f.bias);   // [1, 2)
  switch (imm & 3) {
  case 1:   // [1/2, 2): an odd exponent puts the value in [1/2, 1)
    exponent = ir.CreateSub(exponent, ir.CreateAnd(f.unbiased, constant(1)));
    break;
  case 2:   // [1/2, 1)
    exponent = constant(f.bias - 1);
    break;
  case 3:   // [3/4, 3/2): a significand of 1.5 or more is halved
    exponent = ir.CreateSub(
        exponent, ir.CreateLShr(f.fraction, constant(f.significandBits - 1)));
    break;
  }
  llvm::Value *sign = imm & 4 ? zero : ir.CreateAnd(f.bits, constant(uint64_t(1) << (f.width - 1)));
  llvm::Value *bits =
      ir.CreateOr(sign, ir.CreateOr(ir.CreateShl(exponent, constant(f.significandBits)),
                                    f.fraction));
  llvm::Value *one = ir.CreateOr(sign, constant(uint64_t(f.bias) << f.significandBits));
  llvm::Value *isZero = ir.CreateICmpEQ(ir.CreateOr(f.exponent, f.significand), zero);
  llvm::Value *isInf = ir.CreateFCmpOEQ(ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value),
                                        llvm::ConstantFP::getInfinity(fpType));
  // In the CPU's order: -0 gives -1.0 or +1.0 whatever bit 3 says, -inf the default NaN.
  bits = ir.CreateSelect(isInf, one, bits);
  if (imm & 8)
    bits = ir.CreateSelect(f.negative, fp::defaultNaNBits(ctx, fpType), bits);
  bits = ir.CreateSelect(isZero, one, bits);
  return fp::x86UnaryNaN(ctx, value, fp::fromBits(ctx, bits, fpType));
}

/// vgetmantps/pd zmm1 {k1}{z}, zmm2/m512/bcst, imm8.
template <bool IsDouble> LiftStatus liftGetMantPacked(LiftContext &ctx, const Instr &instr) {
  unsigned imm = unsigned(simd::immediate(instr, dataOperand(instr, 2)));
  return liftOneSource(ctx, floatElement(ctx, IsDouble),
                       [&](llvm::Value *x) { return mantissaOf(ctx, x, imm); });
}

/// `a` * 2^`power` (`power` an integral value of `a`'s type, at most ±4096) rounded once to
/// nearest, in generic IR: a's normalized significand times two normal powers of two, the
/// first product exact and the second the only one that can round (it overflows or becomes
/// denormal; a product by a power of two is otherwise exact). A total exponent beyond twice
/// the normal range overflows or underflows as one far beyond it does.
llvm::Value *scaleByPowerOfTwo(LiftContext &ctx, llvm::Value *a, llvm::Value *power) {
  auto &ir = ctx.ir;
  llvm::Type *fpType = a->getType();
  Fields f = fieldsOf(ctx, a);
  llvm::Type *type = f.bits->getType();
  auto constant = [&](int64_t v) { return llvm::ConstantInt::get(type, uint64_t(v), true); };
  int64_t range = int64_t(f.bias) - 1;   // 2^-range .. 2^range are normal
  auto smaller = [&](llvm::Value *x, llvm::Value *y) {
    return ir.CreateSelect(ir.CreateICmpSLT(x, y), x, y);
  };
  auto larger = [&](llvm::Value *x, llvm::Value *y) {
    return ir.CreateSelect(ir.CreateICmpSGT(x, y), x, y);
  };
  llvm::Value *total = ir.CreateAdd(f.unbiased, ir.CreateFPToSI(power, type));
  total = larger(smaller(total, constant(2 * range)), constant(-2 * range));
  llvm::Value *first = ir.CreateSelect(ir.CreateICmpSGE(total, constant(-range)),
                                       smaller(total, constant(range)),
                                       ir.CreateAdd(total, constant(range)));
  llvm::Value *second = ir.CreateSub(total, first);
  auto powerOfTwo = [&](llvm::Value *exponent) {
    llvm::Value *biased = ir.CreateAdd(exponent, constant(f.bias));
    return fp::fromBits(ctx, ir.CreateShl(biased, constant(f.significandBits)), fpType);
  };
  llvm::Value *sign = ir.CreateAnd(f.bits, constant(int64_t(uint64_t(1) << (f.width - 1))));
  llvm::Value *significand = fp::fromBits(
      ctx,
      ir.CreateOr(sign, ir.CreateOr(constant(int64_t(f.bias) << f.significandBits), f.fraction)),
      fpType);
  llvm::Value *result =
      ir.CreateFMul(ir.CreateFMul(significand, powerOfTwo(first)), powerOfTwo(second));
  // ±0 and ±inf (and NaN, which the caller handles) stay as they are.
  llvm::Value *unscaled = ir.CreateOr(
      ir.CreateICmpEQ(ir.CreateOr(f.exponent, f.significand), llvm::Constant::getNullValue(type)),
      ir.CreateICmpEQ(f.exponent, constant(2 * f.bias + 1)));
  return ir.CreateSelect(unscaled, a, result);
}

/// scalef(a, b) = a * 2^floor(b), rounded once (SDM vol. 2, VSCALEFPS, table 5-29): a NaN
/// source gives the first NaN quieted, except a QNaN a with an infinite b; b = +inf gives
/// ±inf, or the default NaN for a = ±0; b = -inf gives ±0, or the default NaN for a = ±inf.
/// floor(b) is clamped to ±4096, which overflows or underflows every finite nonzero a as any
/// larger exponent does.
llvm::Value *scaled(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  llvm::Type *fpType = a->getType();
  llvm::Value *limit = llvm::ConstantFP::get(fpType, 4096.0);
  llvm::Value *power = ir.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b);
  power = ir.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, power, limit);
  power = ir.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, power, ir.CreateFNeg(limit));
  llvm::Value *result = scaleByPowerOfTwo(ctx, a, power);
  llvm::Value *infinity = llvm::ConstantFP::getInfinity(fpType);
  llvm::Value *magnitude = ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a);
  // a * +inf is ±inf, or NaN for a zero (x86NaN makes it the default NaN).
  result = ir.CreateSelect(ir.CreateFCmpOEQ(b, infinity), ir.CreateFMul(a, infinity), result);
  llvm::Value *toZero = ir.CreateSelect(
      ir.CreateFCmpOEQ(magnitude, infinity), llvm::ConstantFP::getNaN(fpType),
      ir.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, llvm::Constant::getNullValue(fpType),
                               a));
  llvm::Value *minusInfinity = ir.CreateFNeg(infinity);
  result = ir.CreateSelect(ir.CreateFCmpOEQ(b, minusInfinity), toZero, result);
  result = fp::x86BinaryNaN(ctx, a, b, result);
  // Not in the SDM's table, seen on the CPU: a QNaN (of either sign) scaled by +inf is +inf,
  // by -inf +0; an SNaN is quieted as usual.
  llvm::Value *quiet = ir.CreateAnd(
      fp::isNaN(ctx, a),
      ir.CreateICmpEQ(fp::toBits(ctx, a), fp::quietedBits(ctx, a)));
  result = ir.CreateSelect(ir.CreateAnd(quiet, ir.CreateFCmpOEQ(b, infinity)), infinity, result);
  return ir.CreateSelect(ir.CreateAnd(quiet, ir.CreateFCmpOEQ(b, minusInfinity)),
                         llvm::Constant::getNullValue(fpType), result);
}

/// vscalefps/pd zmm1 {k1}{z}, zmm2, zmm3/m512/bcst.
template <bool IsDouble> LiftStatus liftScaleFPacked(LiftContext &ctx, const Instr &) {
  return liftTwoSources(ctx, floatElement(ctx, IsDouble),
                        [&](llvm::Value *a, llvm::Value *b) { return scaled(ctx, a, b); });
}

/// The rounding mode of vrndscale's and vreduce's imm8 as an i32 (fp::RoundingMode): imm8[1:0],
/// or MXCSR.RC with imm8[2].
llvm::Value *roundingModeOf(LiftContext &ctx, unsigned imm) {
  return imm & 4 ? fp::mxcsrRoundingMode(ctx) : ctx.constant(32, imm & 3);
}

/// rndscale(x) = 2^-M * round(2^M * x) with M = imm8[7:4] and the rounding mode of imm8[1:0],
/// or MXCSR.RC with imm8[2] (SDM vol. 2, VRNDSCALEPS); an SNaN is quieted. A value of 2^(p-1)
/// or more (p the precision) is already integral at every M, and left as it is: 2^M * x could
/// overflow. Below it, both products are exact.
llvm::Value *roundScaled(LiftContext &ctx, llvm::Value *x, unsigned imm) {
  auto &ir = ctx.ir;
  llvm::Type *type = x->getType();
  unsigned scale = imm >> 4;
  unsigned precision = type->getScalarSizeInBits() == 64 ? 53 : 24;
  llvm::Value *up = llvm::ConstantFP::get(type, std::ldexp(1.0, int(scale)));
  llvm::Value *down = llvm::ConstantFP::get(type, std::ldexp(1.0, -int(scale)));
  llvm::Value *scaled = ir.CreateFMul(x, up);
  llvm::Value *rounded = fp::roundIntegral(ctx, scaled, roundingModeOf(ctx, imm));
  llvm::Value *result = ir.CreateFMul(rounded, down);
  llvm::Value *integral = ir.CreateFCmpOGE(
      ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x),
      llvm::ConstantFP::get(type, std::ldexp(1.0, int(precision) - 1)));
  result = ir.CreateSelect(integral, x, result);
  return fp::x86UnaryNaN(ctx, x, result);
}

/// reduce(x) = x - rndscale(x), the subtraction rounded in the same mode as the rounding to
/// integral (SDM vol. 2, VREDUCEPS): an exact difference of zero is +0, -0 when rounding
/// down (x - x in IEEE arithmetic); ±inf gives +0 and a NaN the source quieted. The difference
/// is computed to nearest with its exact error (Knuth's TwoSum) and moved one unit toward the
/// directed mode's side where the error says the nearest one is on the wrong side; it is
/// exact unless |x| is below 2^-M and rounds away from zero.
llvm::Value *reduced(LiftContext &ctx, llvm::Value *x, unsigned imm) {
  auto &ir = ctx.ir;
  llvm::Type *fpType = x->getType();
  llvm::Value *mode = roundingModeOf(ctx, imm);
  llvm::Value *rounded = roundScaled(ctx, x, imm);
  llvm::Value *minus = ir.CreateFNeg(rounded);
  llvm::Value *sum = ir.CreateFAdd(x, minus);
  llvm::Value *virtualMinus = ir.CreateFSub(sum, x);
  llvm::Value *error = ir.CreateFAdd(ir.CreateFSub(x, ir.CreateFSub(sum, virtualMinus)),
                                     ir.CreateFSub(minus, virtualMinus));
  llvm::Value *zero = llvm::Constant::getNullValue(fpType);
  llvm::Value *above = ir.CreateFCmpOGT(error, zero);   // the exact difference is above sum
  llvm::Value *below = ir.CreateFCmpOLT(error, zero);
  auto isMode = [&](fp::RoundingMode m) {   // of the shape of x
    llvm::Value *is = ir.CreateICmpEQ(mode, ctx.constant(32, unsigned(m)));
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(fpType))
      return ir.CreateVectorSplat(vector->getNumElements(), is);
    return is;
  };
  llvm::Value *positive = ir.CreateFCmpOGT(sum, zero);
  // One unit up: the magnitude grows for a positive sum and shrinks for a negative one.
  llvm::Value *bits = fp::toBits(ctx, sum);
  llvm::Value *one = llvm::ConstantInt::get(bits->getType(), 1);
  llvm::Value *upBits = ir.CreateSelect(positive, ir.CreateAdd(bits, one), ir.CreateSub(bits, one));
  llvm::Value *downBits =
      ir.CreateSelect(positive, ir.CreateSub(bits, one), ir.CreateAdd(bits, one));
  llvm::Value *goUp = ir.CreateOr(ir.CreateAnd(isMode(fp::RoundingMode::Up), above),
                                  ir.CreateAnd(isMode(fp::RoundingMode::TowardZero),
                                               ir.CreateAnd(ir.CreateNot(positive), above)));
  llvm::Value *goDown = ir.CreateOr(ir.CreateAnd(isMode(fp::RoundingMode::Down), below),
                                    ir.CreateAnd(isMode(fp::RoundingMode::TowardZero),
                                                 ir.CreateAnd(positive, below)));
  bits = ir.CreateSelect(goUp, upBits, ir.CreateSelect(goDown, downBits, bits));
  llvm::Value *result = fp::fromBits(ctx, bits, fpType);
  llvm::Value *negativeZero = llvm::ConstantFP::getNegativeZero(fpType);
  result = ir.CreateSelect(
      ir.CreateAnd(ir.CreateFCmpOEQ(result, zero), isMode(fp::RoundingMode::Down)), negativeZero,
      ir.CreateSelect(ir.CreateFCmpOEQ(result, zero), zero, result));
  llvm::Value *isInf = ir.CreateFCmpOEQ(ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x),
                                        llvm::ConstantFP::getInfinity(fpType));
  result = ir.CreateSelect(isInf, zero, result);
  return fp::x86UnaryNaN(ctx, x, result);
}

/// vreduceps/pd zmm1 {k1}{z}, zmm2/m512/bcst, imm8 (DQ).
template <bool IsDouble> LiftStatus liftReducePacked(LiftContext &ctx, const Instr &instr) {
  unsigned imm = unsigned(simd::immediate(instr, dataOperand(instr, 2)));
  return liftOneSource(ctx, floatElement(ctx, IsDouble),
                       [&](llvm::Value *x) { return reduced(ctx, x, imm); });
}

/// vrndscaleps/pd zmm1 {k1}{z}, zmm2/m512/bcst, imm8.
template <bool IsDouble> LiftStatus liftRoundScalePacked(LiftContext &ctx, const Instr &instr) {
  unsigned imm = unsigned(simd::immediate(instr, dataOperand(instr, 2)));
  return liftOneSource(ctx, floatElement(ctx, IsDouble),
                       [&](llvm::Value *x) { return roundScaled(ctx, x, imm); });
}

/// range(a, b) (DQ, SDM vol. 2, VRANGEPS): imm8[1:0] picks the minimum, maximum, the one of
/// smaller or of larger magnitude (equal magnitudes: -x below +x), with -0 below +0; imm8[3:2]
/// the sign: a's (00), the picked one's (01), clear (10) or set (11). As the CPU gives it: a
/// QNaN with a number picks the number, two QNaNs give a with that sign, an SNaN (a's first)
/// gives itself quieted with its own sign.
llvm::Value *ranged(LiftContext &ctx, llvm::Value *a, llvm::Value *b, unsigned imm) {
  auto &ir = ctx.ir;
  llvm::Type *fpType = a->getType();
  llvm::Value *aNaN = fp::isNaN(ctx, a), *bNaN = fp::isNaN(ctx, b);
  auto signaling = [&](llvm::Value *x, llvm::Value *isNaN) {
    return ir.CreateAnd(isNaN, ir.CreateICmpNE(fp::toBits(ctx, x), fp::quietedBits(ctx, x)));
  };
  llvm::Value *x = ir.CreateSelect(ir.CreateAnd(aNaN, ir.CreateNot(bNaN)), b, a);
  llvm::Value *y = ir.CreateSelect(ir.CreateAnd(bNaN, ir.CreateNot(aNaN)), a, b);
  llvm::Value *xBits = fp::toBits(ctx, x), *yBits = fp::toBits(ctx, y);
  llvm::Value *zeroBits = llvm::Constant::getNullValue(xBits->getType());
  llvm::Value *xNegative = ir.CreateICmpSLT(xBits, zeroBits);
  llvm::Value *yNegative = ir.CreateICmpSLT(yBits, zeroBits);
  llvm::Value *less = ir.CreateOr(
      ir.CreateFCmpOLT(x, y),
      ir.CreateAnd(ir.CreateFCmpOEQ(x, y), ir.CreateAnd(xNegative, ir.CreateNot(yNegative))));
  llvm::Value *xMagnitude = ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value *yMagnitude = ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, y);
  llvm::Value *smaller = ir.CreateFCmpOLT(xMagnitude, yMagnitude);
  llvm::Value *larger = ir.CreateFCmpOLT(yMagnitude, xMagnitude);
  llvm::Value *picked = nullptr;
  switch (imm & 3) {
  case 0:
    picked = ir.CreateSelect(less, x, y);
    break;
  case 1:
    picked = ir.CreateSelect(less, y, x);
    break;
  case 2:
    picked = ir.CreateSelect(smaller, x, ir.CreateSelect(larger, y, ir.CreateSelect(less, x, y)));
    break;
  case 3:
    picked = ir.CreateSelect(smaller, y, ir.CreateSelect(larger, x, ir.CreateSelect(less, y, x)));
    break;
  }
  picked = fp::toBits(ctx, ir.CreateSelect(ir.CreateAnd(aNaN, bNaN), a, picked));
  llvm::Value *signBit = llvm::ConstantInt::get(
      xBits->getType(), llvm::APInt::getSignMask(fpType->getScalarSizeInBits()));
  llvm::Value *magnitude = ir.CreateAnd(picked, ir.CreateNot(signBit));
  llvm::Value *bits = nullptr;
  switch (imm >> 2 & 3) {
  case 0:
    bits = ir.CreateOr(magnitude, ir.CreateAnd(fp::toBits(ctx, a), signBit));
    break;
  case 1:
    bits = picked;
    break;
  case 2:
    bits = magnitude;
    break;
  case 3:
    bits = ir.CreateOr(magnitude, signBit);
    break;
  }
  bits = ir.CreateSelect(signaling(b, bNaN), fp::quietedBits(ctx, b), bits);
  bits = ir.CreateSelect(signaling(a, aNaN), fp::quietedBits(ctx, a), bits);
  return fp::fromBits(ctx, bits, fpType);
}

/// vrangeps/pd zmm1 {k1}{z}, zmm2, zmm3/m512/bcst, imm8.
template <bool IsDouble> LiftStatus liftRangePacked(LiftContext &ctx, const Instr &instr) {
  unsigned imm = unsigned(simd::immediate(instr, dataOperand(instr, 3)));
  return liftTwoSources(ctx, floatElement(ctx, IsDouble),
                        [&](llvm::Value *a, llvm::Value *b) { return ranged(ctx, a, b, imm); });
}

enum class Scalar { GetExp, GetMant, RoundScale, Reduce, ScaleF, Range };

/// The scalar forms (vgetexpss xmm1 {k1}{z}, xmm2, xmm3/m32; vgetmantss, vrndscaless ...,
/// imm8; vscalefss, vrangess): element 0 computed from src2's (and src1's for vscalef and
/// vrange), elements 1.. from src1, the rest of the register zeroed.
template <bool IsDouble, Scalar Op>
LiftStatus liftFieldsScalar(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = floatElement(ctx, IsDouble);
  llvm::Value *first = ctx.readVectorReg(instr.op(dataOperand(instr, 1)).reg, element);
  llvm::Value *b = readScalarSource(ctx, dataOperand(instr, 2), element);
  auto imm = [&] { return unsigned(simd::immediate(instr, dataOperand(instr, 3))); };
  llvm::Value *low = nullptr;
  switch (Op) {
  case Scalar::GetExp:
    low = exponentOf(ctx, b);
    break;
  case Scalar::GetMant:
    low = mantissaOf(ctx, b, imm());
    break;
  case Scalar::RoundScale:
    low = roundScaled(ctx, b, imm());
    break;
  case Scalar::Reduce:
    low = reduced(ctx, b, imm());
    break;
  case Scalar::ScaleF:
    low = scaled(ctx, ctx.ir.CreateExtractElement(first, uint64_t(0)), b);
    break;
  case Scalar::Range:
    low = ranged(ctx, ctx.ir.CreateExtractElement(first, uint64_t(0)), b, imm());
    break;
  }
  writeScalarResult(ctx, first, low);
  return LiftStatus::Lifted;
}

} // namespace

void registerAvx512FloatFields(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VFPCLASSPS, liftClassPacked<false>);
  table.add(ZYDIS_MNEMONIC_VFPCLASSPD, liftClassPacked<true>);
  table.add(ZYDIS_MNEMONIC_VFPCLASSSS, liftClassScalar<false>);
  table.add(ZYDIS_MNEMONIC_VFPCLASSSD, liftClassScalar<true>);
  table.add(ZYDIS_MNEMONIC_VGETEXPPS, liftGetExpPacked<false>);
  table.add(ZYDIS_MNEMONIC_VGETEXPPD, liftGetExpPacked<true>);
  table.add(ZYDIS_MNEMONIC_VGETEXPSS, liftFieldsScalar<false, Scalar::GetExp>);
  table.add(ZYDIS_MNEMONIC_VGETEXPSD, liftFieldsScalar<true, Scalar::GetExp>);
  table.add(ZYDIS_MNEMONIC_VGETMANTPS, liftGetMantPacked<false>);
  table.add(ZYDIS_MNEMONIC_VGETMANTPD, liftGetMantPacked<true>);
  table.add(ZYDIS_MNEMONIC_VGETMANTSS, liftFieldsScalar<false, Scalar::GetMant>);
  table.add(ZYDIS_MNEMONIC_VGETMANTSD, liftFieldsScalar<true, Scalar::GetMant>);
  table.add(ZYDIS_MNEMONIC_VSCALEFPS, liftScaleFPacked<false>);
  table.add(ZYDIS_MNEMONIC_VSCALEFPD, liftScaleFPacked<true>);
  table.add(ZYDIS_MNEMONIC_VSCALEFSS, liftFieldsScalar<false, Scalar::ScaleF>);
  table.add(ZYDIS_MNEMONIC_VSCALEFSD, liftFieldsScalar<true, Scalar::ScaleF>);
  table.add(ZYDIS_MNEMONIC_VRANGEPS, liftRangePacked<false>);
  table.add(ZYDIS_MNEMONIC_VRANGEPD, liftRangePacked<true>);
  table.add(ZYDIS_MNEMONIC_VRANGESS, liftFieldsScalar<false, Scalar::Range>);
  table.add(ZYDIS_MNEMONIC_VRANGESD, liftFieldsScalar<true, Scalar::Range>);
  table.add(ZYDIS_MNEMONIC_VRNDSCALEPS, liftRoundScalePacked<false>);
  table.add(ZYDIS_MNEMONIC_VRNDSCALEPD, liftRoundScalePacked<true>);
  table.add(ZYDIS_MNEMONIC_VRNDSCALESS, liftFieldsScalar<false, Scalar::RoundScale>);
  table.add(ZYDIS_MNEMONIC_VRNDSCALESD, liftFieldsScalar<true, Scalar::RoundScale>);
  table.add(ZYDIS_MNEMONIC_VREDUCEPS, liftReducePacked<false>);
  table.add(ZYDIS_MNEMONIC_VREDUCEPD, liftReducePacked<true>);
  table.add(ZYDIS_MNEMONIC_VREDUCESS, liftFieldsScalar<false, Scalar::Reduce>);
  table.add(ZYDIS_MNEMONIC_VREDUCESD, liftFieldsScalar<true, Scalar::Reduce>);
}

} // namespace hoist
