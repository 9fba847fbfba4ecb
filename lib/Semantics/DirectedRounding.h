// The static roundings of EVEX forms ({rd-sae}, {ru-sae}, {rz-sae}) computed without the
// host's rounding mode: the round-to-nearest result, the sign of its exact error from an
// error-free transformation, and a step of one ulp toward the requested direction where the
// error points that way (docs/DESIGN.md, "Static rounding"). Scalars or vectors of float or
// double alike; the caller applies its NaN rule afterwards (NaN results are left as they are).
#pragma once

#include "Semantics/FloatRules.h"

namespace hoist::fp {

/// The rounding an EVEX form asks for: {rd-sae}, {ru-sae}, {rz-sae} or {rn-sae}; Nearest when
/// it has no embedded rounding or {sae} alone (the default environment Hoist models).
RoundingMode staticRounding(const Instr &instr);

/// Whether the AVX-512 semantic of `mnemonic` computes every static rounding; the other forms
/// with {rd-sae}, {ru-sae} or {rz-sae} have no semantics (Semantics.cpp).
bool honoursStaticRounding(ZydisMnemonic mnemonic);

/// Where the exact value lies against a rounded one: above (exact > rounded) and below, as
/// i1 masks of the value's shape; both false when the rounded value is exact (or a NaN).
struct ErrorSign {
  llvm::Value *above;
  llvm::Value *below;
};

/// The sign of `error` (exact minus rounded) as an ErrorSign.
ErrorSign signOf(LiftContext &ctx, llvm::Value *error);

/// `nearest` (a round-to-nearest result) moved one ulp up, down or toward zero where `sign`
/// says the exact value lies that way under `mode`. An infinity from an overflow steps back to
/// the largest finite value, a zero from an underflow out to the smallest denormal.
llvm::Value *roundFromNearest(LiftContext &ctx, RoundingMode mode, llvm::Value *nearest,
                              ErrorSign sign);

/// An exact zero sum rounded down is -0 unless both addends are +0 (IEEE 754, 6.3); the
/// nearest result `rounded` has +0 there. `first` and `second` are the two terms as added.
llvm::Value *zeroSumSign(LiftContext &ctx, RoundingMode mode, llvm::Value *rounded,
                         ErrorSign sign, llvm::Value *first, llvm::Value *second);

/// `a op b` (Add, Sub, Mul, Div, Sqrt of b; Min and Max round nothing) rounded in `mode`,
/// with the x86 NaN rules of fp::arithmetic.
llvm::Value *roundedArithmetic(LiftContext &ctx, Arith op, llvm::Value *a, llvm::Value *b,
                               RoundingMode mode);

/// a*b + c with one rounding in `mode`, no NaN rule applied (the caller's). The product's
/// sign is a's: the negating forms pass -a, the subtracting ones -c.
llvm::Value *roundedFusedMultiplyAdd(LiftContext &ctx, llvm::Value *a, llvm::Value *b,
                                     llvm::Value *c, RoundingMode mode);

/// `integer` (signed or not) converted to the floating-point `type` in `mode`.
llvm::Value *roundedIntegerToFloat(LiftContext &ctx, llvm::Value *integer, llvm::Type *type,
                                   bool isUnsigned, RoundingMode mode);

/// A double `value` narrowed to float in `mode` (NaNs: the caller's rule).
llvm::Value *roundedNarrowing(LiftContext &ctx, llvm::Value *value, llvm::Type *type,
                              RoundingMode mode);

} // namespace hoist::fp
