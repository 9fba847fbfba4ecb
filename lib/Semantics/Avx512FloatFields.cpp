// AVX-512 floating point computed from the fields of the value (sign, exponent, significand):
// vfpclassps/pd/ss/sd (classes into an opmask), vgetexpps/pd/ss/sd and vrndscaleps/pd/ss/sd,
// packed and scalar, with masking, zeroing and broadcasts from Avx512Operands. Exact: none of
// them rounds except vrndscale, whose rounding to an integral value is exact. MXCSR.DAZ is
// not modelled (DESIGN.md), so denormals are classified and scaled as themselves.
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
/// width.
struct Fields {
  llvm::Value *bits, *negative, *exponent, *significand;
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
  f.negative = ir.CreateICmpSLT(f.bits, llvm::Constant::getNullValue(type));
  unsigned exponentBits = f.width - 1 - f.significandBits;
  f.exponent = ir.CreateAnd(ir.CreateLShr(f.bits, constant(f.significandBits)),
                            constant((uint64_t(1) << exponentBits) - 1));
  f.significand = ir.CreateAnd(f.bits, constant((uint64_t(1) << f.significandBits) - 1));
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
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(type, v); };
  llvm::Value *zero = llvm::Constant::getNullValue(type);
  llvm::Value *normal = ir.CreateSub(f.exponent, constant(f.bias));
  // A denormal is significand * 2^(1 - bias - significandBits).
  llvm::Value *highestBit = ir.CreateSub(
      constant(f.width - 1),
      ir.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, f.significand, ir.getFalse()));
  llvm::Value *denormal = ir.CreateSub(highestBit, constant(f.bias - 1 + f.significandBits));
  llvm::Value *exponent =
      ir.CreateSelect(ir.CreateICmpEQ(f.exponent, zero), denormal, normal);
  llvm::Value *result = ir.CreateSIToFP(exponent, fpType);
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
  llvm::Value *rounded = imm & 4 ? fp::roundIntegral(ctx, scaled, fp::mxcsrRoundingMode(ctx))
                                 : fp::roundIntegral(ctx, scaled, fp::RoundingMode(imm & 3));
  llvm::Value *result = ir.CreateFMul(rounded, down);
  llvm::Value *integral = ir.CreateFCmpOGE(
      ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x),
      llvm::ConstantFP::get(type, std::ldexp(1.0, int(precision) - 1)));
  result = ir.CreateSelect(integral, x, result);
  return fp::x86UnaryNaN(ctx, x, result);
}

/// vrndscaleps/pd zmm1 {k1}{z}, zmm2/m512/bcst, imm8.
template <bool IsDouble> LiftStatus liftRoundScalePacked(LiftContext &ctx, const Instr &instr) {
  unsigned imm = unsigned(simd::immediate(instr, dataOperand(instr, 2)));
  return liftOneSource(ctx, floatElement(ctx, IsDouble),
                       [&](llvm::Value *x) { return roundScaled(ctx, x, imm); });
}

/// The scalar forms (vgetexpss xmm1 {k1}{z}, xmm2, xmm3/m32; vrndscaless ..., imm8): element 0
/// computed from src2's, elements 1.. from src1, the rest of the register zeroed.
template <bool IsDouble, bool RoundScale>
LiftStatus liftFieldsScalar(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = floatElement(ctx, IsDouble);
  llvm::Value *first = ctx.readVectorReg(instr.op(dataOperand(instr, 1)).reg, element);
  llvm::Value *b = readScalarSource(ctx, dataOperand(instr, 2), element);
  llvm::Value *low =
      RoundScale
          ? roundScaled(ctx, b, unsigned(simd::immediate(instr, dataOperand(instr, 3))))
          : exponentOf(ctx, b);
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
  table.add(ZYDIS_MNEMONIC_VGETEXPSS, liftFieldsScalar<false, false>);
  table.add(ZYDIS_MNEMONIC_VGETEXPSD, liftFieldsScalar<true, false>);
  table.add(ZYDIS_MNEMONIC_VRNDSCALEPS, liftRoundScalePacked<false>);
  table.add(ZYDIS_MNEMONIC_VRNDSCALEPD, liftRoundScalePacked<true>);
  table.add(ZYDIS_MNEMONIC_VRNDSCALESS, liftFieldsScalar<false, true>);
  table.add(ZYDIS_MNEMONIC_VRNDSCALESD, liftFieldsScalar<true, true>);
}

} // namespace hoist
