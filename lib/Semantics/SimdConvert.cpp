// SIMD conversions (Zydis category CONVERT of SSE, AVX and F16C): between integers and
// floating point, between float formats, scalar and packed, legacy and VEX.
//
// Conversions to integer honour MXCSR.RC exactly; the other rounding conversions (integer to
// float, double to float) are modelled for round-to-nearest, the default environment
// (docs/DESIGN.md), except vcvtps2ph, whose rounding is built exactly for every mode. The
// packed EVEX forms (registerAvx512Convert) share the semantics: their source, mask and
// result go through Avx512Operands, and an embedded rounding ({rn-sae} ... {rz-sae}) rounds
// as it says whatever MXCSR.RC holds (DirectedRounding.h).
#include "Semantics/Semantics.h"
#include "Semantics/Avx512Operands.h"
#include "Semantics/DirectedRounding.h"
#include "Semantics/FloatRules.h"

#include <llvm/IR/Intrinsics.h>

#include <cmath>

namespace hoist {
namespace {

enum class Element { Int32, Int64, UInt32, UInt64, Float16, Float32, Float64 };

/// Whether integer elements of `element` are read and written unsigned (the AVX-512 forms
/// vcvtusi2ss, vcvtss2usi, vcvtudq2ps, vcvtps2udq...).
constexpr bool isUnsigned(Element element) {
  return element == Element::UInt32 || element == Element::UInt64;
}

llvm::Type *elementType(LiftContext &ctx, Element element) {
  switch (element) {
  case Element::Int32:
  case Element::UInt32:
    return ctx.ir.getInt32Ty();
  case Element::Int64:
  case Element::UInt64:
    return ctx.ir.getInt64Ty();
  case Element::Float16:
    return ctx.ir.getHalfTy();
  case Element::Float32:
    return ctx.ir.getFloatTy();
  case Element::Float64:
    return ctx.ir.getDoubleTy();
  }
  return nullptr;
}

// --- Rounding control ---------------------------------------------------------------------

/// The rounding mode as MXCSR.RC (bits 13-14) encodes it: 0 nearest-even, 1 down, 2 up,
/// 3 toward zero (SDM vol. 1, 10.2.3.3). Immediates that choose a mode use the same code.
llvm::Value *mxcsrRounding(LiftContext &ctx) {
  const EvexInfo &evex = ctx.instr().evex;
  if (evex.embeddedRounding && evex.staticRounding != ZYDIS_ROUNDING_MODE_INVALID)
    return ctx.ir.getInt32(unsigned(fp::staticRounding(ctx.instr())));   // {rn-sae} ... {rz-sae}
  llvm::Value *mxcsr = ctx.readVar(Var::MXCSR);
  return ctx.ir.CreateAnd(ctx.ir.CreateLShr(mxcsr, 13), 3);
}

/// One of four values by rounding mode (nearest, down, up, zero); a constant mode picks one.
llvm::Value *selectByMode(LiftContext &ctx, llvm::Value *mode,
                          const std::array<llvm::Value *, 4> &byMode) {
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(mode))
    return byMode[constant->getZExtValue() & 3];
  llvm::Value *result = byMode[3];
  for (int i = 2; i >= 0; --i)
    result = ctx.ir.CreateSelect(ctx.ir.CreateICmpEQ(mode, ctx.ir.getInt32(i)), byMode[i], result);
  return result;
}

// --- Element conversions (scalars or vectors alike) ---------------------------------------

/// Floating point to an integer of `integer`'s element width, rounded in `mode`, signed or
/// (`isUnsigned`) unsigned. NaN and values outside the range give the "integer indefinite":
/// the minimum signed value (SDM vol. 1, 4.8.3.7), or for the unsigned AVX-512 forms all ones,
/// 2^w - 1 (SDM vol. 2, VCVTSS2USI). An unsigned conversion of a value that rounds to -0 (in
/// (-1, 0)) is 0, in range. fptosi.sat already gives the signed indefinite for too-negative
/// values; the select covers the rest, so no poison from a plain fptosi/fptoui can leak.
llvm::Value *floatToInteger(LiftContext &ctx, llvm::Value *value, llvm::Type *integer,
                            llvm::Value *mode, bool isUnsigned = false) {
  llvm::Type *type = value->getType()->getWithNewType(integer);
  unsigned bits = integer->getScalarSizeInBits();
  llvm::Value *rounded = fp::roundIntegral(ctx, value, mode);
  auto saturating = isUnsigned ? llvm::Intrinsic::fptoui_sat : llvm::Intrinsic::fptosi_sat;
  llvm::Value *saturated = ctx.ir.CreateIntrinsic(saturating, {type, value->getType()}, {rounded});
  auto constant = [&](double number) { return llvm::ConstantFP::get(value->getType(), number); };
  llvm::Value *inRange = ctx.ir.CreateFCmpOLT(
      rounded, constant(std::ldexp(1.0, int(bits) - (isUnsigned ? 0 : 1))));
  if (isUnsigned)   // rounded is integral: above -1 means +0 or -0 or more
    inRange = ctx.ir.CreateAnd(inRange, ctx.ir.CreateFCmpOGT(rounded, constant(-1.0)));
  llvm::Value *indefinite = llvm::ConstantInt::get(
      type, isUnsigned ? llvm::APInt::getAllOnes(bits) : llvm::APInt::getSignedMinValue(bits));
  return ctx.ir.CreateSelect(inRange, saturated, indefinite);
}

/// An integer (scalar or vector) to `type`, signed or unsigned; rounded to nearest where the
/// value is not exact (the default environment) or as an EVEX form's static rounding says.
llvm::Value *integerToFloat(LiftContext &ctx, llvm::Value *integer, llvm::Type *type,
                            bool isUnsigned) {
  return fp::roundedIntegerToFloat(ctx, integer, type, isUnsigned,
                                   fp::staticRounding(ctx.instr()));
}

struct FloatFormat {
  unsigned bits;
  unsigned mantissa;
};

FloatFormat formatOf(llvm::Type *type) {
  switch (type->getScalarSizeInBits()) {
  case 16:
    return {16, 10};
  case 32:
    return {32, 23};
  default:
    return {64, 52};
  }
}

/// The bits of the QNaN a conversion between float formats makes of the NaN `bits`: the sign
/// kept, the quiet bit set (an SNaN is quieted), the payload's top bits kept or its bits moved
/// to the top (SDM vol. 1, 4.8.3.5 and table 4-7).
llvm::Value *convertedNaN(LiftContext &ctx, llvm::Value *bits, FloatFormat from, FloatFormat to,
                          llvm::Type *toInteger) {
  llvm::Value *sign = ctx.ir.CreateLShr(bits, from.bits - 1);
  sign = ctx.ir.CreateShl(ctx.ir.CreateZExtOrTrunc(sign, toInteger), to.bits - 1);
  llvm::Value *payload = ctx.ir.CreateAnd(bits, (uint64_t(1) << from.mantissa) - 1);
  if (to.mantissa >= from.mantissa)
    payload = ctx.ir.CreateShl(ctx.ir.CreateZExt(payload, toInteger), to.mantissa - from.mantissa);
  else
    payload = ctx.ir.CreateTrunc(ctx.ir.CreateLShr(payload, from.mantissa - to.mantissa), toInteger);
  uint64_t exponent = (uint64_t(1) << (to.bits - 1 - to.mantissa)) - 1;
  uint64_t quietNaN = exponent << to.mantissa | uint64_t(1) << (to.mantissa - 1);
  return ctx.ir.CreateOr(ctx.ir.CreateOr(sign, payload), quietNaN);
}

/// `value` converted as the CPU does when it is a NaN (to the format of `converted`);
/// `converted` otherwise.
llvm::Value *withConvertedNaN(LiftContext &ctx, llvm::Value *value, llvm::Value *converted) {
  llvm::Type *fromType = value->getType();
  llvm::Type *toType = converted->getType();
  FloatFormat from = formatOf(fromType), to = formatOf(toType);
  llvm::Value *bits = ctx.ir.CreateBitCast(value, fromType->getWithNewType(ctx.intType(from.bits)));
  llvm::Type *toInteger = toType->getWithNewType(ctx.intType(to.bits));
  llvm::Value *nan =
      ctx.ir.CreateBitCast(convertedNaN(ctx, bits, from, to, toInteger), toType);
  return ctx.ir.CreateSelect(ctx.ir.CreateFCmpUNO(value, value), nan, converted);
}

/// Between float formats. Widening is exact; narrowing rounds to nearest (the default
/// environment) or as an EVEX form's static rounding says (double to float; vcvtps2ph has
/// its own). NaNs follow the x86 rule, not LLVM's unspecified NaN result.
llvm::Value *convertFloat(LiftContext &ctx, llvm::Value *value, llvm::Type *toElement) {
  llvm::Type *type = value->getType()->getWithNewType(toElement);
  bool widens = toElement->getScalarSizeInBits() > value->getType()->getScalarSizeInBits();
  llvm::Value *converted =
      widens ? ctx.ir.CreateFPExt(value, type)
             : fp::roundedNarrowing(ctx, value, type, fp::staticRounding(ctx.instr()));
  return withConvertedNaN(ctx, value, converted);
}

/// float to IEEE half in any rounding mode, on the bits (vcvtps2ph; LLVM's fptrunc rounds to
/// nearest only). Returns the half bits as i16 elements. Overflow gives infinity or the
/// largest finite half, whichever the mode rounds toward (IEEE 754, 7.4); results below the
/// normal range are denormal halves, rounded like any other.
llvm::Value *floatToHalfBits(LiftContext &ctx, llvm::Value *value, llvm::Value *mode) {
  LiftBuilder &ir = ctx.ir;
  llvm::Type *type = value->getType()->getWithNewType(ir.getInt32Ty());
  auto c = [&](uint64_t constant) { return llvm::ConstantInt::get(type, constant); };
  llvm::Value *bits = ir.CreateBitCast(value, type);
  llvm::Value *negative = ir.CreateICmpSLT(bits, c(0));
  llvm::Value *exponent = ir.CreateAnd(ir.CreateLShr(bits, 23), 0xff);
  llvm::Value *mantissa = ir.CreateAnd(bits, 0x7fffff);

  // value = significand * 2^(exponent - 150); a float denormal has exponent 1 and no
  // implicit bit.
  llvm::Value *denormal = ir.CreateICmpEQ(exponent, c(0));
  llvm::Value *significand = ir.CreateSelect(denormal, mantissa, ir.CreateOr(mantissa, 0x800000));
  // The half's biased exponent (bias 15 against 127); at 0 or below the half is denormal, and
  // the significand loses one more bit per step below 1. Past 25 bits nothing is left but
  // the sticky remainder.
  llvm::Value *halfExponent = ir.CreateSub(ir.CreateSelect(denormal, c(1), exponent), c(112));
  llvm::Value *normal = ir.CreateICmpSGT(halfExponent, c(0));
  llvm::Value *denormalShift = ir.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                                        ir.CreateSub(c(14), halfExponent), c(25));
  llvm::Value *shift = ir.CreateSelect(normal, c(13), denormalShift);
  llvm::Value *kept = ir.CreateLShr(significand, shift);
  llvm::Value *remainder = ir.CreateAnd(significand, ir.CreateSub(ir.CreateShl(c(1), shift), c(1)));
  llvm::Value *halfway = ir.CreateShl(c(1), ir.CreateSub(shift, c(1)));

  llvm::Value *inexact = ir.CreateICmpNE(remainder, c(0));
  llvm::Value *odd = ir.CreateICmpNE(ir.CreateAnd(kept, 1), c(0));
  llvm::Value *nearestUp =
      ir.CreateOr(ir.CreateICmpUGT(remainder, halfway),
                  ir.CreateAnd(ir.CreateICmpEQ(remainder, halfway), odd));
  llvm::Value *no = llvm::Constant::getNullValue(nearestUp->getType());
  llvm::Value *roundsUp = selectByMode(
      ctx, mode,
      {nearestUp, ir.CreateAnd(inexact, negative), ir.CreateAnd(inexact, ir.CreateNot(negative)),
       no});
  // Adding the significand (implicit bit included) to (exponent - 1) << 10 carries into the
  // exponent when rounding overflows the mantissa, and a denormal rounding up becomes normal.
  llvm::Value *base = ir.CreateSelect(normal, ir.CreateShl(ir.CreateSub(halfExponent, c(1)), 10), c(0));
  llvm::Value *magnitude = ir.CreateAdd(ir.CreateAdd(base, kept), ir.CreateZExt(roundsUp, type));

  llvm::Value *infinity = c(0x7c00), *largest = c(0x7bff);
  llvm::Value *overflowed = selectByMode(
      ctx, mode,
      {infinity, ir.CreateSelect(negative, infinity, largest),
       ir.CreateSelect(negative, largest, infinity), largest});
  magnitude = ir.CreateSelect(ir.CreateICmpUGE(magnitude, infinity), overflowed, magnitude);

  // Infinity stays infinity; a NaN is quieted and keeps the top of its payload.
  llvm::Value *nan = ir.CreateOr(ir.CreateLShr(mantissa, 13), 0x7e00);
  llvm::Value *special =
      ir.CreateSelect(ir.CreateICmpEQ(mantissa, c(0)), infinity, nan);
  magnitude = ir.CreateSelect(ir.CreateICmpEQ(exponent, c(0xff)), special, magnitude);
  llvm::Value *sign = ir.CreateShl(ir.CreateLShr(bits, 31), 15);
  return ir.CreateTrunc(ir.CreateOr(sign, magnitude), value->getType()->getWithNewType(ir.getInt16Ty()));
}

// --- Vector shapes ------------------------------------------------------------------------

/// The first `count` elements of `vector`.
llvm::Value *lowElements(LiftContext &ctx, llvm::Value *vector, unsigned count) {
  auto *type = llvm::cast<llvm::FixedVectorType>(vector->getType());
  if (type->getNumElements() == count)
    return vector;
  llvm::SmallVector<int, 8> mask;
  for (unsigned i = 0; i < count; ++i)
    mask.push_back(int(i));
  return ctx.ir.CreateShuffleVector(vector, mask);
}

/// `vector` followed by zero elements up to `bits`.
llvm::Value *zeroExtendTo(LiftContext &ctx, llvm::Value *vector, unsigned bits) {
  auto *type = llvm::cast<llvm::FixedVectorType>(vector->getType());
  unsigned count = type->getNumElements();
  unsigned total = bits / type->getScalarSizeInBits();
  if (total == count)
    return vector;
  llvm::SmallVector<int, 16> mask;
  for (unsigned i = 0; i < total; ++i)
    mask.push_back(int(i < count ? i : count));
  return ctx.ir.CreateShuffleVector(vector, llvm::Constant::getNullValue(type), mask);
}

/// The packed source (operand 1) as `count` elements of `element`: a widening conversion
/// reads the low half of an xmm register (or a memory operand of that half's size).
llvm::Value *readPackedSource(LiftContext &ctx, llvm::Type *element, unsigned count) {
  const Instr &instr = ctx.instr();
  if (instr.encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX)
    return avx512::readElements(ctx, avx512::dataOperand(instr, 1), element, count);
  return lowElements(ctx, ctx.readVector(1, element), count);
}

/// Writes a packed result to operand 0; a narrowing conversion fills only the low half or
/// quarter of an xmm register and zeroes the rest (SDM vol. 2, CVTPD2PS, VCVTPS2PH).
void writePackedResult(LiftContext &ctx, llvm::Value *result) {
  if (ctx.instr().encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX)
    return avx512::writeResult(ctx, result);
  const Operand &destination = ctx.instr().op(0);
  if (destination.isReg())
    result = zeroExtendTo(ctx, result, LiftContext::vectorRegisterBits(destination.reg));
  ctx.writeVector(0, result);
}

/// How many elements a packed conversion from `from` to `to` converts: as many as fill the
/// wider of source and destination.
unsigned packedCount(LiftContext &ctx, llvm::Type *from, llvm::Type *to) {
  unsigned fromBits = from->getPrimitiveSizeInBits(), toBits = to->getPrimitiveSizeInBits();
  if (ctx.instr().encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX)   // the vector length is the wider
    return avx512::vectorBits(ctx.instr()) / std::max(fromBits, toBits);
  return toBits >= fromBits ? ctx.operandBits(0) / toBits : ctx.operandBits(1) / fromBits;
}

/// `value` as the low element of the first source (the destination for legacy forms, the
/// second operand for VEX and EVEX ones), whose other elements are kept: cvtsi2sd, cvtss2sd.
/// An EVEX form's element 0 is written where the write mask enables it (vcvtss2sd xmm1 {k1}{z}).
void writeLowElement(LiftContext &ctx, llvm::Value *value) {
  const Instr &instr = ctx.instr();
  if (instr.encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX) {
    llvm::Value *upper = ctx.readVectorReg(instr.op(avx512::dataOperand(instr, 1)).reg,
                                           value->getType());
    return avx512::writeScalarResult(ctx, upper, value);
  }
  llvm::Value *upper = ctx.readVector(ctx.firstSource(), value->getType());
  ctx.writeVector(0, ctx.ir.CreateInsertElement(upper, value, uint64_t(0)));
}

// --- Semantics ----------------------------------------------------------------------------

/// cvtsi2ss, cvtsi2sd (and EVEX vcvtusi2ss, vcvtusi2sd, `Unsigned`): a 32- or 64-bit integer
/// (GPR or memory) to the low float element. The EVEX forms have no write mask.
template <Element To, bool Unsigned = false>
LiftStatus liftIntegerToScalar(LiftContext &ctx, const Instr &instr) {
  llvm::Value *integer = ctx.readOperand(ctx.firstSource() + 1);
  writeLowElement(ctx, integerToFloat(ctx, integer, elementType(ctx, To), Unsigned));
  return LiftStatus::Lifted;
}

/// cvtss2si, cvtsd2si (rounding as MXCSR.RC or {rn-sae} says) and cvttss2si, cvttsd2si
/// (toward zero): the low float element to a 32- or 64-bit GPR; EVEX vcvtss2usi, vcvttsd2usi...
/// (`Unsigned`) to an unsigned one. No write mask.
template <Element From, bool Truncates, bool Unsigned = false>
LiftStatus liftScalarToInteger(LiftContext &ctx, const Instr &instr) {
  llvm::Value *mode = Truncates ? ctx.ir.getInt32(3) : mxcsrRounding(ctx);
  llvm::Value *value = ctx.readScalar(1, elementType(ctx, From));
  ctx.writeOperand(0,
                   floatToInteger(ctx, value, ctx.intType(ctx.operandBits(0)), mode, Unsigned));
  return LiftStatus::Lifted;
}

/// cvtss2sd, cvtsd2ss: the low element to the other float format (EVEX: under the write mask,
/// a memory source read only when the mask enables element 0).
template <Element From, Element To>
LiftStatus liftScalarFloat(LiftContext &ctx, const Instr &instr) {
  llvm::Type *from = elementType(ctx, From);
  llvm::Value *value = instr.encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX
                           ? avx512::readScalarSource(ctx, avx512::dataOperand(instr, 2), from)
                           : ctx.readScalar(ctx.firstSource() + 1, from);
  writeLowElement(ctx, convertFloat(ctx, value, elementType(ctx, To)));
  return LiftStatus::Lifted;
}

/// cvtdq2ps, cvtdq2pd (and EVEX vcvtqq2ps, vcvtqq2pd, and unsigned vcvtudq2ps...
/// vcvtuqq2pd): packed integers to float or double (exact or round-to-nearest).
template <Element To, Element From = Element::Int32>
LiftStatus liftPackedIntegerToFloat(LiftContext &ctx, const Instr &instr) {
  llvm::Type *from = elementType(ctx, From), *to = elementType(ctx, To);
  llvm::Value *source = readPackedSource(ctx, from, packedCount(ctx, from, to));
  writePackedResult(
      ctx, integerToFloat(ctx, source, source->getType()->getWithNewType(to), isUnsigned(From)));
  return LiftStatus::Lifted;
}

/// cvtps2dq, cvtpd2dq (MXCSR.RC) and cvttps2dq, cvttpd2dq (toward zero): packed float or
/// double to int32 (EVEX vcvtpd2qq, vcvttpd2qq...: int64); from doubles to int32 the result
/// fills the low half and the rest is zero. Unsigned `To`: vcvtps2udq... vcvttpd2uqq.
template <Element From, bool Truncates, Element To = Element::Int32>
LiftStatus liftPackedFloatToInteger(LiftContext &ctx, const Instr &instr) {
  llvm::Value *mode = Truncates ? ctx.ir.getInt32(3) : mxcsrRounding(ctx);
  llvm::Type *from = elementType(ctx, From), *to = elementType(ctx, To);
  llvm::Value *source = readPackedSource(ctx, from, packedCount(ctx, from, to));
  writePackedResult(ctx, floatToInteger(ctx, source, to, mode, isUnsigned(To)));
  return LiftStatus::Lifted;
}

/// cvtps2pd, cvtpd2ps, vcvtph2ps: packed float formats, NaNs quieted.
template <Element From, Element To>
LiftStatus liftPackedFloat(LiftContext &ctx, const Instr &instr) {
  llvm::Type *from = elementType(ctx, From), *to = elementType(ctx, To);
  llvm::Value *source = readPackedSource(ctx, from, packedCount(ctx, from, to));
  writePackedResult(ctx, convertFloat(ctx, source, to));
  return LiftStatus::Lifted;
}

/// vcvtps2ph: packed float to half, rounded as imm8 says: bits 0-1 a mode, or with bit 2 set
/// MXCSR.RC; bits 3-7 are ignored (SDM vol. 2, VCVTPS2PH, table 5-3). The EVEX form's {sae}
/// changes no result.
LiftStatus liftFloatToHalf(LiftContext &ctx, const Instr &instr) {
  uint64_t imm = instr.op(avx512::dataOperand(instr, 2)).imm;
  llvm::Value *mode = imm & 4 ? mxcsrRounding(ctx) : ctx.ir.getInt32(imm & 3);
  llvm::Type *from = ctx.ir.getFloatTy();
  llvm::Value *source = readPackedSource(ctx, from, packedCount(ctx, from, ctx.ir.getHalfTy()));
  llvm::Value *half;
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(mode); constant && constant->isZero())
    half = ctx.ir.CreateBitCast(convertFloat(ctx, source, ctx.ir.getHalfTy()),
                                source->getType()->getWithNewType(ctx.ir.getInt16Ty()));
  else
    half = floatToHalfBits(ctx, source, mode);
  writePackedResult(ctx, half);
  return LiftStatus::Lifted;
}

} // namespace

void registerSimdConvert(SemanticTable &table) {
  using E = Element;
  struct Pair {
    ZydisMnemonic legacy, vex;
    Semantic semantic;
  };
  static const Pair Pairs[] = {
      {ZYDIS_MNEMONIC_CVTSI2SS, ZYDIS_MNEMONIC_VCVTSI2SS, liftIntegerToScalar<E::Float32>},
      {ZYDIS_MNEMONIC_CVTSI2SD, ZYDIS_MNEMONIC_VCVTSI2SD, liftIntegerToScalar<E::Float64>},
      {ZYDIS_MNEMONIC_CVTSS2SI, ZYDIS_MNEMONIC_VCVTSS2SI, liftScalarToInteger<E::Float32, false>},
      {ZYDIS_MNEMONIC_CVTSD2SI, ZYDIS_MNEMONIC_VCVTSD2SI, liftScalarToInteger<E::Float64, false>},
      {ZYDIS_MNEMONIC_CVTTSS2SI, ZYDIS_MNEMONIC_VCVTTSS2SI, liftScalarToInteger<E::Float32, true>},
      {ZYDIS_MNEMONIC_CVTTSD2SI, ZYDIS_MNEMONIC_VCVTTSD2SI, liftScalarToInteger<E::Float64, true>},
      {ZYDIS_MNEMONIC_CVTSS2SD, ZYDIS_MNEMONIC_VCVTSS2SD, liftScalarFloat<E::Float32, E::Float64>},
      {ZYDIS_MNEMONIC_CVTSD2SS, ZYDIS_MNEMONIC_VCVTSD2SS, liftScalarFloat<E::Float64, E::Float32>},
      {ZYDIS_MNEMONIC_CVTDQ2PS, ZYDIS_MNEMONIC_VCVTDQ2PS, liftPackedIntegerToFloat<E::Float32>},
      {ZYDIS_MNEMONIC_CVTDQ2PD, ZYDIS_MNEMONIC_VCVTDQ2PD, liftPackedIntegerToFloat<E::Float64>},
      {ZYDIS_MNEMONIC_CVTPS2DQ, ZYDIS_MNEMONIC_VCVTPS2DQ,
       liftPackedFloatToInteger<E::Float32, false>},
      {ZYDIS_MNEMONIC_CVTTPS2DQ, ZYDIS_MNEMONIC_VCVTTPS2DQ,
       liftPackedFloatToInteger<E::Float32, true>},
      {ZYDIS_MNEMONIC_CVTPD2DQ, ZYDIS_MNEMONIC_VCVTPD2DQ,
       liftPackedFloatToInteger<E::Float64, false>},
      {ZYDIS_MNEMONIC_CVTTPD2DQ, ZYDIS_MNEMONIC_VCVTTPD2DQ,
       liftPackedFloatToInteger<E::Float64, true>},
      {ZYDIS_MNEMONIC_CVTPS2PD, ZYDIS_MNEMONIC_VCVTPS2PD, liftPackedFloat<E::Float32, E::Float64>},
      {ZYDIS_MNEMONIC_CVTPD2PS, ZYDIS_MNEMONIC_VCVTPD2PS, liftPackedFloat<E::Float64, E::Float32>},
  };
  for (const Pair &pair : Pairs) {
    table.add(pair.legacy, pair.semantic);
    table.add(pair.vex, pair.semantic);
  }
  // F16C has VEX forms only.
  table.add(ZYDIS_MNEMONIC_VCVTPH2PS, liftPackedFloat<E::Float16, E::Float32>);
  table.add(ZYDIS_MNEMONIC_VCVTPS2PH, liftFloatToHalf);
}

void registerAvx512Convert(SemanticTable &table) {
  using E = Element;
  table.add(ZYDIS_MNEMONIC_VCVTDQ2PS, liftPackedIntegerToFloat<E::Float32>);
  table.add(ZYDIS_MNEMONIC_VCVTDQ2PD, liftPackedIntegerToFloat<E::Float64>);
  table.add(ZYDIS_MNEMONIC_VCVTQQ2PS, liftPackedIntegerToFloat<E::Float32, E::Int64>);
  table.add(ZYDIS_MNEMONIC_VCVTQQ2PD, liftPackedIntegerToFloat<E::Float64, E::Int64>);
  table.add(ZYDIS_MNEMONIC_VCVTPS2DQ, liftPackedFloatToInteger<E::Float32, false>);
  table.add(ZYDIS_MNEMONIC_VCVTTPS2DQ, liftPackedFloatToInteger<E::Float32, true>);
  table.add(ZYDIS_MNEMONIC_VCVTPD2DQ, liftPackedFloatToInteger<E::Float64, false>);
  table.add(ZYDIS_MNEMONIC_VCVTTPD2DQ, liftPackedFloatToInteger<E::Float64, true>);
  table.add(ZYDIS_MNEMONIC_VCVTPS2QQ, liftPackedFloatToInteger<E::Float32, false, E::Int64>);
  table.add(ZYDIS_MNEMONIC_VCVTTPS2QQ, liftPackedFloatToInteger<E::Float32, true, E::Int64>);
  table.add(ZYDIS_MNEMONIC_VCVTPD2QQ, liftPackedFloatToInteger<E::Float64, false, E::Int64>);
  table.add(ZYDIS_MNEMONIC_VCVTTPD2QQ, liftPackedFloatToInteger<E::Float64, true, E::Int64>);
  table.add(ZYDIS_MNEMONIC_VCVTPS2PD, liftPackedFloat<E::Float32, E::Float64>);
  table.add(ZYDIS_MNEMONIC_VCVTPD2PS, liftPackedFloat<E::Float64, E::Float32>);
  table.add(ZYDIS_MNEMONIC_VCVTPH2PS, liftPackedFloat<E::Float16, E::Float32>);
  table.add(ZYDIS_MNEMONIC_VCVTPS2PH, liftFloatToHalf);
  // Unsigned packed conversions (AVX512F for dwords, AVX512DQ for qwords).
  table.add(ZYDIS_MNEMONIC_VCVTUDQ2PS, liftPackedIntegerToFloat<E::Float32, E::UInt32>);
  table.add(ZYDIS_MNEMONIC_VCVTUDQ2PD, liftPackedIntegerToFloat<E::Float64, E::UInt32>);
  table.add(ZYDIS_MNEMONIC_VCVTUQQ2PS, liftPackedIntegerToFloat<E::Float32, E::UInt64>);
  table.add(ZYDIS_MNEMONIC_VCVTUQQ2PD, liftPackedIntegerToFloat<E::Float64, E::UInt64>);
  table.add(ZYDIS_MNEMONIC_VCVTPS2UDQ, liftPackedFloatToInteger<E::Float32, false, E::UInt32>);
  table.add(ZYDIS_MNEMONIC_VCVTTPS2UDQ, liftPackedFloatToInteger<E::Float32, true, E::UInt32>);
  table.add(ZYDIS_MNEMONIC_VCVTPD2UDQ, liftPackedFloatToInteger<E::Float64, false, E::UInt32>);
  table.add(ZYDIS_MNEMONIC_VCVTTPD2UDQ, liftPackedFloatToInteger<E::Float64, true, E::UInt32>);
  table.add(ZYDIS_MNEMONIC_VCVTPS2UQQ, liftPackedFloatToInteger<E::Float32, false, E::UInt64>);
  table.add(ZYDIS_MNEMONIC_VCVTTPS2UQQ, liftPackedFloatToInteger<E::Float32, true, E::UInt64>);
  table.add(ZYDIS_MNEMONIC_VCVTPD2UQQ, liftPackedFloatToInteger<E::Float64, false, E::UInt64>);
  table.add(ZYDIS_MNEMONIC_VCVTTPD2UQQ, liftPackedFloatToInteger<E::Float64, true, E::UInt64>);
  // Scalar forms: the signed ones share the VEX semantics; no write mask but for the float
  // to float pair.
  table.add(ZYDIS_MNEMONIC_VCVTSI2SS, liftIntegerToScalar<E::Float32>);
  table.add(ZYDIS_MNEMONIC_VCVTSI2SD, liftIntegerToScalar<E::Float64>);
  table.add(ZYDIS_MNEMONIC_VCVTUSI2SS, liftIntegerToScalar<E::Float32, true>);
  table.add(ZYDIS_MNEMONIC_VCVTUSI2SD, liftIntegerToScalar<E::Float64, true>);
  table.add(ZYDIS_MNEMONIC_VCVTSS2SI, liftScalarToInteger<E::Float32, false>);
  table.add(ZYDIS_MNEMONIC_VCVTSD2SI, liftScalarToInteger<E::Float64, false>);
  table.add(ZYDIS_MNEMONIC_VCVTTSS2SI, liftScalarToInteger<E::Float32, true>);
  table.add(ZYDIS_MNEMONIC_VCVTTSD2SI, liftScalarToInteger<E::Float64, true>);
  table.add(ZYDIS_MNEMONIC_VCVTSS2USI, liftScalarToInteger<E::Float32, false, true>);
  table.add(ZYDIS_MNEMONIC_VCVTSD2USI, liftScalarToInteger<E::Float64, false, true>);
  table.add(ZYDIS_MNEMONIC_VCVTTSS2USI, liftScalarToInteger<E::Float32, true, true>);
  table.add(ZYDIS_MNEMONIC_VCVTTSD2USI, liftScalarToInteger<E::Float64, true, true>);
  table.add(ZYDIS_MNEMONIC_VCVTSS2SD, liftScalarFloat<E::Float32, E::Float64>);
  table.add(ZYDIS_MNEMONIC_VCVTSD2SS, liftScalarFloat<E::Float64, E::Float32>);
}

} // namespace hoist
