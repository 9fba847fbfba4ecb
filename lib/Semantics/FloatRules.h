// The x86 floating-point rules that LLVM IR leaves open, for scalar or vector values of any
// IEEE type: which NaN an operation returns, the default NaN, the min/max selection, and
// rounding to an integral value under an immediate or MXCSR rounding mode.
//
// LLVM's fadd and friends may return any NaN (LangRef, "Floating-Point Semantics"), so the
// NaN a result carries is chosen here with selects on the bits, which LLVM keeps exactly.
#pragma once

#include "Arch/LiftContext.h"

#include <llvm/ADT/APFloat.h>
#include <llvm/IR/Intrinsics.h>

#include <initializer_list>
#include <iterator>

namespace hoist::fp {

/// The integer type with the shape of `fpType`: i32 for float, <4 x i64> for <4 x double>.
inline llvm::Type *bitsType(LiftContext &ctx, llvm::Type *fpType) {
  return fpType->getWithNewType(ctx.intType(fpType->getScalarSizeInBits()));
}

inline llvm::Value *toBits(LiftContext &ctx, llvm::Value *value) {
  return ctx.ir.CreateBitCast(value, bitsType(ctx, value->getType()));
}

inline llvm::Value *fromBits(LiftContext &ctx, llvm::Value *bits, llvm::Type *fpType) {
  return ctx.ir.CreateBitCast(bits, fpType);
}

inline llvm::Value *isNaN(LiftContext &ctx, llvm::Value *value) {
  return ctx.ir.CreateFCmpUNO(value, value);
}

/// The default NaN, the "QNaN floating-point indefinite" (SDM vol. 1, 4.8.3.7): sign set,
/// quiet bit set, zero payload (0xffc00000, 0xfff8000000000000), as bits.
inline llvm::Constant *defaultNaNBits(LiftContext &ctx, llvm::Type *fpType) {
  const llvm::fltSemantics &semantics = fpType->getScalarType()->getFltSemantics();
  return llvm::ConstantInt::get(bitsType(ctx, fpType),
                                llvm::APFloat::getQNaN(semantics, true).bitcastToAPInt());
}

/// The bits of `value` with the quiet bit set: an SNaN becomes the QNaN of the same payload
/// (SDM vol. 1, 4.8.3.4); a QNaN stays as it is.
inline llvm::Value *quietedBits(LiftContext &ctx, llvm::Value *value) {
  const llvm::fltSemantics &semantics = value->getType()->getScalarType()->getFltSemantics();
  llvm::APInt quietBit = llvm::APFloat::getQNaN(semantics).bitcastToAPInt() ^
                         llvm::APFloat::getInf(semantics).bitcastToAPInt();
  return ctx.ir.CreateOr(toBits(ctx, value),
                         llvm::ConstantInt::get(bitsType(ctx, value->getType()), quietBit));
}

/// `result` of an operation on `sources` with the x86 NaN rules (SDM vol. 1, table 4-7): the
/// first NaN source, quieted; else, if the operation was invalid (its result is a NaN from
/// non-NaN sources), the default NaN; else `result`.
inline llvm::Value *x86NaN(LiftContext &ctx, std::initializer_list<llvm::Value *> sources,
                           llvm::Value *result) {
  llvm::Type *type = result->getType();
  llvm::Value *bits =
      ctx.ir.CreateSelect(isNaN(ctx, result), defaultNaNBits(ctx, type), toBits(ctx, result));
  for (auto source = std::rbegin(sources); source != std::rend(sources); ++source)
    bits = ctx.ir.CreateSelect(isNaN(ctx, *source), quietedBits(ctx, *source), bits);
  return fromBits(ctx, bits, type);
}

inline llvm::Value *x86UnaryNaN(LiftContext &ctx, llvm::Value *a, llvm::Value *result) {
  return x86NaN(ctx, {a}, result);
}

/// SSE binary operations: a NaN in the first source wins over one in the second.
inline llvm::Value *x86BinaryNaN(LiftContext &ctx, llvm::Value *a, llvm::Value *b,
                                 llvm::Value *result) {
  return x86NaN(ctx, {a, b}, result);
}

/// minps/maxps (SDM vol. 2, MINPS): `a < b ? a : b`, so the second operand, unchanged (an
/// SNaN is not quieted), when either is a NaN or both are zeros of any sign.
inline llvm::Value *x86Min(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  llvm::Value *bits =
      ctx.ir.CreateSelect(ctx.ir.CreateFCmpOLT(a, b), toBits(ctx, a), toBits(ctx, b));
  return fromBits(ctx, bits, a->getType());
}

inline llvm::Value *x86Max(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  llvm::Value *bits =
      ctx.ir.CreateSelect(ctx.ir.CreateFCmpOGT(a, b), toBits(ctx, a), toBits(ctx, b));
  return fromBits(ctx, bits, a->getType());
}

enum class Arith { Add, Sub, Mul, Div, Min, Max, Sqrt };

/// `a op b` under the x86 rules: NaN propagation, the default NaN for invalid operations
/// (inf-inf, 0*inf, 0/0, inf/inf, sqrt of a negative), min/max returning the second source.
inline llvm::Value *arithmetic(LiftContext &ctx, Arith op, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  switch (op) {
  case Arith::Add:
    return x86BinaryNaN(ctx, a, b, ir.CreateFAdd(a, b));
  case Arith::Sub:
    return x86BinaryNaN(ctx, a, b, ir.CreateFSub(a, b));
  case Arith::Mul:
    return x86BinaryNaN(ctx, a, b, ir.CreateFMul(a, b));
  case Arith::Div:
    return x86BinaryNaN(ctx, a, b, ir.CreateFDiv(a, b));
  case Arith::Min:
    return x86Min(ctx, a, b);
  case Arith::Max:
    return x86Max(ctx, a, b);
  case Arith::Sqrt:
    return x86UnaryNaN(ctx, b, ir.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, b));
  }
  return nullptr;
}

/// The comparison of cmpps' imm8 (SDM vol. 2, CMPPS, table 3-1). Predicates 16-31 repeat
/// 0-15 with the other signalling behaviour, which changes only the exceptions.
inline llvm::CmpInst::Predicate comparePredicate(unsigned imm) {
  using P = llvm::CmpInst::Predicate;
  static const P Predicates[16] = {P::FCMP_OEQ, P::FCMP_OLT, P::FCMP_OLE, P::FCMP_UNO,
                                   P::FCMP_UNE, P::FCMP_UGE, P::FCMP_UGT, P::FCMP_ORD,
                                   P::FCMP_UEQ, P::FCMP_ULT, P::FCMP_ULE, P::FCMP_FALSE,
                                   P::FCMP_ONE, P::FCMP_OGE, P::FCMP_OGT, P::FCMP_TRUE};
  return Predicates[imm & 15];
}

/// The x86 rounding-control encoding, shared by MXCSR.RC (bits 13-14), the x87 control word
/// and the roundps immediate (bits 0-1).
enum class RoundingMode : unsigned { Nearest = 0, Down = 1, Up = 2, TowardZero = 3 };

/// `value` rounded to an integral value of its type under `mode`, exactly (NaNs aside: the
/// caller applies its NaN rule).
inline llvm::Value *roundIntegral(LiftContext &ctx, llvm::Value *value, RoundingMode mode) {
  static const llvm::Intrinsic::ID Ids[] = {llvm::Intrinsic::roundeven, llvm::Intrinsic::floor,
                                            llvm::Intrinsic::ceil, llvm::Intrinsic::trunc};
  return ctx.ir.CreateUnaryIntrinsic(Ids[static_cast<unsigned>(mode)], value);
}

/// `value` rounded under a mode known only at run time: `mode` is an integer (any width) in
/// 0..3, MXCSR.RC or the x87 RC; a constant mode needs no select.
inline llvm::Value *roundIntegral(LiftContext &ctx, llvm::Value *value, llvm::Value *mode) {
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(mode))
    return roundIntegral(ctx, value, RoundingMode(constant->getZExtValue() & 3));
  llvm::Value *result = roundIntegral(ctx, value, RoundingMode::Nearest);
  for (RoundingMode other : {RoundingMode::Down, RoundingMode::Up, RoundingMode::TowardZero}) {
    llvm::Value *chosen =
        ctx.ir.CreateICmpEQ(mode, llvm::ConstantInt::get(mode->getType(), unsigned(other)));
    result = ctx.ir.CreateSelect(chosen, roundIntegral(ctx, value, other), result);
  }
  return result;
}

/// MXCSR.RC (bits 13-14) as an i32 in 0..3.
inline llvm::Value *mxcsrRoundingMode(LiftContext &ctx) {
  llvm::Value *mxcsr = ctx.readVar(Var::MXCSR);
  return ctx.ir.CreateAnd(ctx.ir.CreateLShr(mxcsr, 13), ctx.constant(32, 3));
}

} // namespace hoist::fp
