// The fused multiply-add in a static rounding: the sign of a*b + c - r, r = RN(a*b + c).
// Floats compute it in double, where the product is exact; doubles by Boldo and Muller's
// ErrFma, scaled by powers of two into the range where it is exact (docs/DESIGN.md, "Static
// rounding").
#include "Semantics/DirectedRoundingParts.h"

namespace hoist::fp {
namespace {

struct TwoSum {
  llvm::Value *sum;
  llvm::Value *error;   ///< x + y - sum, exactly
};

/// Knuth's 2Sum: exact for any x, y whose sum does not overflow.
TwoSum twoSum(LiftContext &ctx, llvm::Value *x, llvm::Value *y) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *sum = ir.CreateFAdd(x, y);
  llvm::Value *yPart = ir.CreateFSub(sum, x);
  llvm::Value *xPart = ir.CreateFSub(sum, yPart);
  return {sum, ir.CreateFAdd(ir.CreateFSub(x, xPart), ir.CreateFSub(y, yPart))};
}

/// The sign of x + y + z, exact terms far from overflow. With (s, t) = 2Sum(x, y) and
/// (u, v) = 2Sum(s, z), x + y + z = u + v + t exactly. If v = 0, RN(u + t) has the sign of
/// u + t (a nonzero sum of two floats never rounds to zero). If v != 0, s + z was inexact,
/// so not a Sterbenz cancellation: |u| > |s|/2, while |v + t| <= 2^-52 |u| + 2^-53 |s|;
/// u's sign decides, and RN(u + RN(v + t)) keeps it.
ErrorSign sumOfThreeSign(LiftContext &ctx, llvm::Value *x, llvm::Value *y, llvm::Value *z) {
  TwoSum first = twoSum(ctx, x, y);
  TwoSum second = twoSum(ctx, first.sum, z);
  return signOf(ctx, ctx.ir.CreateFAdd(second.sum, ctx.ir.CreateFAdd(second.error, first.error)));
}

/// ErrFma (Boldo and Muller, "Exact and approximated error of the FMA", IEEE TC 60(2),
/// 2011): a*b + c = r + r2 + r3 exactly with r2 = RN(gamma + alpha2) and |r3| <= ulp(r2)/2,
/// for r = RN(a*b + c) when the product's error is representable (e_a + e_b >= -970) and
/// nothing overflows; so the error's sign is that of gamma + alpha2.
ErrorSign errFmaSign(LiftContext &ctx, llvm::Value *a, llvm::Value *b, llvm::Value *c,
                     llvm::Value *r) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *u1 = ir.CreateFMul(a, b);
  llvm::Value *u2 = fusedMultiplyAdd(ctx, a, b, ir.CreateFNeg(u1));
  TwoSum alpha = twoSum(ctx, c, u2);
  TwoSum beta = twoSum(ctx, u1, alpha.sum);
  llvm::Value *gamma = ir.CreateFAdd(ir.CreateFSub(beta.sum, r), beta.error);
  return signOf(ctx, ir.CreateFAdd(gamma, alpha.error));
}

/// The double case. Unscaled, ErrFma holds for 2^-910 <= |RN(a*b)| and |RN(a*b)|, |c| <
/// 2^990. When r = c the error is a*b itself, whatever the magnitudes; otherwise a*b moved c,
/// so |c| < 2^54 |a*b| roughly, which bounds c where one of the products is out of range:
/// - small (|RN(a*b)| < 2^-910, so |c| < 2^-846): the smaller factor, c and r times 2^1200;
/// - big (|RN(a*b)| or |c| >= 2^990, so the larger factor >= 2^468): the larger factor, c and
///   r times 2^-64, exact but for a c under 2^-900, negligible against a*b - r (a multiple
///   of 2^830 when not zero), which stands in as +-2^-1000 for its sign alone.
/// ErrFma then runs against r2 = RN of the scaled sum; r2 differs from the scaled r only
/// when r was rounded coarser (a denormal) or c stood in, and then the scaled r is another
/// point of r2's grid, on the side of the exact value that r2 - r shows.
ErrorSign doubleErrorSign(LiftContext &ctx, llvm::Value *a, llvm::Value *b, llvm::Value *c,
                          llvm::Value *r) {
  LiftBuilder &ir = ctx.ir;
  llvm::Type *type = r->getType();
  llvm::Value *zero = llvm::Constant::getNullValue(type);
  llvm::Value *product = ir.CreateFMul(a, b);
  llvm::Value *big = ir.CreateOr(ir.CreateFCmpOGE(magnitude(ctx, product), powerOfTwo(type, 990)),
                                 ir.CreateFCmpOGE(magnitude(ctx, c), powerOfTwo(type, 990)));
  llvm::Value *small = ir.CreateFCmpOLT(magnitude(ctx, product), powerOfTwo(type, -910));
  llvm::Value *aLarger = ir.CreateFCmpOGE(magnitude(ctx, a), magnitude(ctx, b));
  llvm::Value *larger = ir.CreateSelect(aLarger, a, b);
  llvm::Value *smaller = ir.CreateSelect(aLarger, b, a);

  llvm::Value *cTiny = ir.CreateAnd(ir.CreateFCmpONE(c, zero),
                                    ir.CreateFCmpOLT(magnitude(ctx, c), powerOfTwo(type, -900)));
  llvm::Value *cDown = ir.CreateSelect(
      cTiny, ir.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, powerOfTwo(type, -1000), c),
      scaled(ctx, c, -64));
  auto pick = [&](llvm::Value *ifBig, llvm::Value *ifSmall, llvm::Value *otherwise) {
    return ir.CreateSelect(big, ifBig, ir.CreateSelect(small, ifSmall, otherwise));
  };
  llvm::Value *x = pick(scaled(ctx, larger, -64), scaled(ctx, smaller, 1200), smaller);
  llvm::Value *y = ir.CreateSelect(big, smaller, larger);
  llvm::Value *scaledC = pick(cDown, scaled(ctx, c, 1200), c);
  llvm::Value *scaledR = pick(scaled(ctx, r, -64), scaled(ctx, r, 1200), r);

  llvm::Value *r2 = fusedMultiplyAdd(ctx, x, y, scaledC);
  ErrorSign fromR2 = errFmaSign(ctx, x, y, scaledC, r2);
  llvm::Value *gap = ir.CreateFSub(r2, scaledR);
  ErrorSign fromGap = signOf(ctx, gap);
  llvm::Value *gapShows = ir.CreateFCmpONE(gap, zero);
  ErrorSign sign{ir.CreateSelect(gapShows, fromGap.above, fromR2.above),
                 ir.CreateSelect(gapShows, fromGap.below, fromR2.below)};

  // r = c: the error is a*b, with the sign of the factors (zero when one is zero).
  llvm::Value *unchanged = ir.CreateFCmpOEQ(r, c);
  llvm::Value *aPositive = ir.CreateFCmpOGT(a, zero), *aNegative = ir.CreateFCmpOLT(a, zero);
  llvm::Value *bPositive = ir.CreateFCmpOGT(b, zero), *bNegative = ir.CreateFCmpOLT(b, zero);
  llvm::Value *productAbove = ir.CreateOr(ir.CreateAnd(aPositive, bPositive),
                                          ir.CreateAnd(aNegative, bNegative));
  llvm::Value *productBelow = ir.CreateOr(ir.CreateAnd(aPositive, bNegative),
                                          ir.CreateAnd(aNegative, bPositive));
  return {ir.CreateSelect(unchanged, productAbove, sign.above),
          ir.CreateSelect(unchanged, productBelow, sign.below)};
}

} // namespace

llvm::Value *roundedFusedMultiplyAdd(LiftContext &ctx, llvm::Value *a, llvm::Value *b,
                                     llvm::Value *c, RoundingMode mode) {
  llvm::Value *nearest = fusedMultiplyAdd(ctx, a, b, c);
  if (mode == RoundingMode::Nearest)
    return nearest;
  LiftBuilder &ir = ctx.ir;
  llvm::Type *type = nearest->getType();
  llvm::Value *infinity = llvm::ConstantFP::getInfinity(type);
  llvm::Value *finite = ir.CreateAnd(
      ir.CreateAnd(ir.CreateFCmpOLT(magnitude(ctx, a), infinity),
                   ir.CreateFCmpOLT(magnitude(ctx, b), infinity)),
      ir.CreateFCmpOLT(magnitude(ctx, c), infinity));
  ErrorSign sign =
      isSingle(type)
          ? sumOfThreeSign(ctx, ir.CreateFMul(widened(ctx, a), widened(ctx, b)), widened(ctx, c),
                           ir.CreateFNeg(widened(ctx, nearest)))
          : doubleErrorSign(ctx, a, b, c, nearest);
  // An infinity from finite operands overflowed: the exact value is nearer zero. Infinite
  // or NaN operands give an exact (or NaN) result.
  llvm::Value *zero = llvm::Constant::getNullValue(type);
  llvm::Value *overflow = ir.CreateFCmpOEQ(magnitude(ctx, nearest), infinity);
  sign = {
      ir.CreateAnd(finite, ir.CreateSelect(overflow, ir.CreateFCmpOLT(nearest, zero), sign.above)),
      ir.CreateAnd(finite, ir.CreateSelect(overflow, ir.CreateFCmpOGT(nearest, zero), sign.below))};
  llvm::Value *result = roundFromNearest(ctx, mode, nearest, sign);
  return zeroSumSign(ctx, mode, result, sign, ir.CreateFMul(a, b), c);
}

} // namespace hoist::fp
