// The pieces DirectedRounding.cpp and DirectedFma.cpp share: exact scaling by powers of two,
// magnitudes, widening floats to double, and the fused multiply-add of the host-independent
// llvm.fma.
#pragma once

#include "Semantics/DirectedRounding.h"

#include <algorithm>
#include <cmath>

namespace hoist::fp {

inline bool isSingle(llvm::Type *type) { return type->getScalarType()->isFloatTy(); }

/// 2^exponent in `type` (float or double, scalar or vector), which must hold it.
inline llvm::Constant *powerOfTwo(llvm::Type *type, int exponent) {
  return llvm::ConstantFP::get(type, std::ldexp(1.0, exponent));
}

/// x * 2^exponent, in steps the type can hold (2^100 for float, 2^1000 for double). Exact
/// wherever the call sites use it: the result is finite and, scaling down, normal or the
/// input's low bits zero.
inline llvm::Value *scaled(LiftContext &ctx, llvm::Value *x, int exponent) {
  int step = isSingle(x->getType()) ? 100 : 1000;
  while (exponent != 0) {
    int now = std::clamp(exponent, -step, step);
    x = ctx.ir.CreateFMul(x, powerOfTwo(x->getType(), now));
    exponent -= now;
  }
  return x;
}

inline llvm::Value *magnitude(LiftContext &ctx, llvm::Value *x) {
  return ctx.ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
}

/// A float value as a double of the same shape (exact).
inline llvm::Value *widened(LiftContext &ctx, llvm::Value *x) {
  return ctx.ir.CreateFPExt(x, x->getType()->getWithNewType(ctx.ir.getDoubleTy()));
}

inline llvm::Value *fusedMultiplyAdd(LiftContext &ctx, llvm::Value *a, llvm::Value *b,
                                     llvm::Value *c) {
  return ctx.ir.CreateIntrinsic(llvm::Intrinsic::fma, {a->getType()}, {a, b, c});
}

/// Whether `mnemonic` is one of FMA3's (SimdFma.cpp), all of which honour static rounding.
bool isFusedMultiplyAdd(ZydisMnemonic mnemonic);

} // namespace hoist::fp
