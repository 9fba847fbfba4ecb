// SIMD integer arithmetic of SSE2 to AVX2 (Zydis categories LOGICAL, SSE, AVX, AVX2 of the
// packed-integer mnemonics): logic, compares, add/sub (wrapping and saturating), shifts,
// min/max/abs/sign/average, multiplies and multiply-adds, horizontal add/sub, sums of absolute
// differences, phminposuw, and the ptest/vtestps/vtestpd flag tests.
//
// Legacy forms read the destination as the first source (pxor xmm1, xmm2); VEX forms have
// three operands (vpxor xmm1, xmm2, xmm3); ctx.firstSource() tells which. Element-wise work is
// typed LLVM vector IR over the operand's width, so xmm and ymm forms share one semantic. The
// MMX forms of the same mnemonics (pxor mm0, mm1) are not handled.
#include "Semantics/Semantics.h"
#include "Semantics/SimdIntegerOps.h"

#include <llvm/IR/Intrinsics.h>

#include <vector>

namespace hoist {
namespace {

/// The xmm/ymm forms; the MMX forms share the mnemonics and are left unsupported.
bool hasVectorDestination(const Instr &instr) {
  return instr.op(0).isReg() && LiftContext::isVectorRegister(instr.op(0).reg);
}

/// A vector of `value`'s type with every element `element`.
llvm::Value *splat(llvm::Value *like, uint64_t element) {
  return llvm::ConstantInt::get(like->getType(), element);
}

/// The vector with elements of twice the width, sign- or zero-extended.
llvm::Value *widen(LiftContext &ctx, llvm::Value *value, bool isSigned) {
  auto *type = llvm::cast<llvm::FixedVectorType>(value->getType());
  unsigned bits = type->getScalarSizeInBits();
  auto *wide = llvm::FixedVectorType::get(ctx.intType(bits * 2), type->getNumElements());
  return isSigned ? ctx.ir.CreateSExt(value, wide) : ctx.ir.CreateZExt(value, wide);
}

/// The even and the odd elements of `value` (0, 2, 4, ... and 1, 3, 5, ...).
std::pair<llvm::Value *, llvm::Value *> evensAndOdds(LiftContext &ctx, llvm::Value *value) {
  unsigned count = llvm::cast<llvm::FixedVectorType>(value->getType())->getNumElements();
  std::vector<int> evens, odds;
  for (unsigned i = 0; i < count; i += 2) {
    evens.push_back(int(i));
    odds.push_back(int(i + 1));
  }
  return {ctx.ir.CreateShuffleVector(value, evens), ctx.ir.CreateShuffleVector(value, odds)};
}

/// Sums of adjacent element pairs: half as many elements of the same type.
llvm::Value *addAdjacentPairs(LiftContext &ctx, llvm::Value *value) {
  auto [evens, odds] = evensAndOdds(ctx, value);
  return ctx.ir.CreateAdd(evens, odds);
}

/// |a - b| of unsigned elements, without overflow.
llvm::Value *absoluteDifference(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  return ir.CreateSub(ir.CreateBinaryIntrinsic(llvm::Intrinsic::umax, a, b),
                      ir.CreateBinaryIntrinsic(llvm::Intrinsic::umin, a, b));
}

// ---------------------------------------------------------------------------------------
// Element-wise operations of two sources.

} // namespace

llvm::Value *simd::combine(LiftContext &ctx, Elementwise op, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  unsigned bits = a->getType()->getScalarSizeInBits();
  auto intrinsic = [&](llvm::Intrinsic::ID id) { return ir.CreateBinaryIntrinsic(id, a, b); };
  auto truncate = [&](llvm::Value *wide) { return ir.CreateTrunc(wide, a->getType()); };
  switch (op) {
  case Elementwise::And: return ir.CreateAnd(a, b);
  case Elementwise::AndNot: return ir.CreateAnd(ir.CreateNot(a), b);   // pandn: ~dest & src
  case Elementwise::Or: return ir.CreateOr(a, b);
  case Elementwise::Xor: return ir.CreateXor(a, b);
  case Elementwise::Add: return ir.CreateAdd(a, b);
  case Elementwise::Sub: return ir.CreateSub(a, b);
  case Elementwise::AddSatSigned: return intrinsic(llvm::Intrinsic::sadd_sat);
  case Elementwise::AddSatUnsigned: return intrinsic(llvm::Intrinsic::uadd_sat);
  case Elementwise::SubSatSigned: return intrinsic(llvm::Intrinsic::ssub_sat);
  case Elementwise::SubSatUnsigned: return intrinsic(llvm::Intrinsic::usub_sat);
  case Elementwise::Equal: return ir.CreateSExt(ir.CreateICmpEQ(a, b), a->getType());
  case Elementwise::Greater: return ir.CreateSExt(ir.CreateICmpSGT(a, b), a->getType());
  case Elementwise::MinSigned: return intrinsic(llvm::Intrinsic::smin);
  case Elementwise::MinUnsigned: return intrinsic(llvm::Intrinsic::umin);
  case Elementwise::MaxSigned: return intrinsic(llvm::Intrinsic::smax);
  case Elementwise::MaxUnsigned: return intrinsic(llvm::Intrinsic::umax);
  case Elementwise::AverageUnsigned: {
    // pavgb/pavgw: (a + b + 1) >> 1 with the carry kept (SDM vol. 2, PAVGB/PAVGW).
    llvm::Value *sum = ir.CreateAdd(widen(ctx, a, false), widen(ctx, b, false));
    return truncate(ir.CreateLShr(ir.CreateAdd(sum, splat(sum, 1)), splat(sum, 1)));
  }
  case Elementwise::Sign: {
    // psign: a negated where b < 0, zero where b == 0, a where b > 0 (-MIN stays MIN).
    llvm::Value *zero = llvm::Constant::getNullValue(a->getType());
    llvm::Value *kept = ir.CreateSelect(ir.CreateICmpEQ(b, zero), zero, a);
    return ir.CreateSelect(ir.CreateICmpSLT(b, zero), ir.CreateSub(zero, a), kept);
  }
  case Elementwise::MulLow: return ir.CreateMul(a, b);
  case Elementwise::MulHighSigned:
  case Elementwise::MulHighUnsigned: {
    bool isSigned = op == Elementwise::MulHighSigned;
    llvm::Value *product = ir.CreateMul(widen(ctx, a, isSigned), widen(ctx, b, isSigned));
    return truncate(ir.CreateLShr(product, splat(product, bits)));
  }
  case Elementwise::MulHighRoundScale: {
    // pmulhrsw: ((a * b >> 14) + 1) >> 1, bits 16:1 of the rounded product (SDM, PMULHRSW).
    llvm::Value *product = ir.CreateMul(widen(ctx, a, true), widen(ctx, b, true));
    llvm::Value *scaled = ir.CreateAdd(ir.CreateAShr(product, splat(product, 14)),
                                       splat(product, 1));
    return truncate(ir.CreateAShr(scaled, splat(scaled, 1)));
  }
  case Elementwise::MulEvenUnsigned:
    // pmuludq: the low doublewords of each quadword, zero-extended, multiplied.
    return ir.CreateMul(ir.CreateAnd(a, splat(a, 0xffffffff)),
                        ir.CreateAnd(b, splat(b, 0xffffffff)));
  case Elementwise::MulEvenSigned: {
    auto lowSigned = [&](llvm::Value *v) {
      return ir.CreateAShr(ir.CreateShl(v, splat(v, 32)), splat(v, 32));
    };
    return ir.CreateMul(lowSigned(a), lowSigned(b));
  }
  case Elementwise::ShiftLeftEach:
  case Elementwise::ShiftRightEach:
  case Elementwise::ShiftArithmeticEach: {
    // vpsllv/vpsrlv/vpsrav: each element by its own unsigned count; a count of at least the
    // width gives 0, or the sign for vpsrav (SDM vol. 2, VPSLLVD/VPSRLVD/VPSRAVD). The
    // clamped count keeps the LLVM shift defined; the select picks the real answer.
    llvm::Value *inRange = ir.CreateICmpULT(b, splat(b, bits));
    llvm::Value *count = ir.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b, splat(b, bits - 1));
    if (op == Elementwise::ShiftArithmeticEach)
      return ir.CreateAShr(a, count);
    llvm::Value *shifted =
        op == Elementwise::ShiftLeftEach ? ir.CreateShl(a, count) : ir.CreateLShr(a, count);
    return ir.CreateSelect(inRange, shifted, llvm::Constant::getNullValue(a->getType()));
  }
  }
  return nullptr;
}

namespace {

using simd::combine;
using simd::Elementwise;
using simd::multiplyAddBytes;
using simd::multiplyAddWords;
using simd::sumAbsoluteDifferences;

/// The result of an instruction from its two sources, seen as vectors of one element type.
using Compute = llvm::Value *(*)(LiftContext &ctx, llvm::Value *a, llvm::Value *b);

/// dest = compute(src1, src2), the sources as vectors of `ElementBits` integers: the shape of
/// every two-source instruction of this file.
template <unsigned ElementBits, Compute Function>
LiftStatus liftTwoSources(LiftContext &ctx, const Instr &instr) {
  if (!hasVectorDestination(instr))
    return ctx.unsupported();
  llvm::Type *element = ctx.intType(ElementBits);
  unsigned first = ctx.firstSource();
  llvm::Value *a = ctx.readVector(first, element);
  llvm::Value *b = ctx.readVector(first + 1, element);
  ctx.writeVector(0, Function(ctx, a, b));
  return LiftStatus::Lifted;
}

template <Elementwise Op>
llvm::Value *elementwise(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  return combine(ctx, Op, a, b);
}

/// dest = op(src1, src2) element by element, for elements of `ElementBits`.
template <Elementwise Op, unsigned ElementBits>
constexpr Semantic liftElementwise = liftTwoSources<ElementBits, elementwise<Op>>;

/// pabsb/w/d: |src|, with |MIN| = MIN (the unsigned reading of the result is right).
template <unsigned ElementBits>
LiftStatus liftAbs(LiftContext &ctx, const Instr &instr) {
  if (!hasVectorDestination(instr))
    return ctx.unsupported();
  llvm::Value *source = ctx.readVector(1, ctx.intType(ElementBits));
  ctx.writeVector(0, ctx.ir.CreateBinaryIntrinsic(llvm::Intrinsic::abs, source,
                                                  ctx.ir.getFalse()));
  return LiftStatus::Lifted;
}

// ---------------------------------------------------------------------------------------
// Shifts by one count for all elements, and byte shifts.

enum class Shift { Left, Right, Arithmetic };

/// psllw/d/q, psrlw/d/q, psraw/d by an imm8 or by the low quadword of an xmm/m128: a count
/// of at least the element width gives 0, or all sign bits for psra (SDM vol. 2, PSLLW...).
/// The ymm forms shift both lanes by the same xmm count.
template <Shift Kind, unsigned ElementBits>
LiftStatus liftShiftByCount(LiftContext &ctx, const Instr &instr) {
  if (!hasVectorDestination(instr))
    return ctx.unsupported();
  auto &ir = ctx.ir;
  unsigned first = ctx.firstSource();
  const Operand &countOperand = instr.op(first + 1);
  llvm::Value *value = ctx.readVector(first, ctx.intType(ElementBits));
  llvm::Value *count = countOperand.isImm() ? ir.getInt64(countOperand.imm & 0xff)
                                            : ctx.readScalar(first + 1, ir.getInt64Ty());

  llvm::Value *inRange = ir.CreateICmpULT(count, ir.getInt64(ElementBits));
  llvm::Value *clamped = ir.CreateBinaryIntrinsic(llvm::Intrinsic::umin, count,
                                                  ir.getInt64(ElementBits - 1));
  auto *type = llvm::cast<llvm::FixedVectorType>(value->getType());
  llvm::Value *amount = ir.CreateVectorSplat(
      type->getNumElements(), ir.CreateTrunc(clamped, ctx.intType(ElementBits)));
  llvm::Value *result;
  if (Kind == Shift::Arithmetic) {
    result = ir.CreateAShr(value, amount);
  } else {
    llvm::Value *shifted =
        Kind == Shift::Left ? ir.CreateShl(value, amount) : ir.CreateLShr(value, amount);
    result = ir.CreateSelect(inRange, shifted, llvm::Constant::getNullValue(type));
  }
  ctx.writeVector(0, result);
  return LiftStatus::Lifted;
}

/// pslldq/psrldq: each 128-bit lane shifted by imm8 bytes, zeros shifted in; a count above 15
/// clears the lane (SDM vol. 2, PSLLDQ/PSRLDQ).
template <Shift Kind>
LiftStatus liftByteShift(LiftContext &ctx, const Instr &instr) {
  if (!hasVectorDestination(instr))
    return ctx.unsupported();
  unsigned first = ctx.firstSource();
  int count = int(instr.op(first + 1).imm & 0xff);
  llvm::Value *value = ctx.readVector(first, ctx.ir.getInt8Ty());
  int bytes = int(llvm::cast<llvm::FixedVectorType>(value->getType())->getNumElements());
  std::vector<int> mask;
  for (int i = 0; i < bytes; ++i) {
    int inLane = i % 16;
    int from = Kind == Shift::Left ? inLane - count : inLane + count;
    mask.push_back(from >= 0 && from < 16 ? i - inLane + from : bytes);   // bytes: a zero
  }
  llvm::Value *zero = llvm::Constant::getNullValue(value->getType());
  ctx.writeVector(0, ctx.ir.CreateShuffleVector(value, zero, mask));
  return LiftStatus::Lifted;
}

// ---------------------------------------------------------------------------------------
// Multiply-adds, horizontal operations, sums of absolute differences.

} // namespace

/// pmaddwd (words): signed words multiplied to doublewords, adjacent products added
/// (wrapping: only 0x8000 * 0x8000 twice overflows, to 0x80000000, as the CPU gives).
llvm::Value *simd::multiplyAddWords(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  llvm::Value *products = ctx.ir.CreateMul(widen(ctx, a, true), widen(ctx, b, true));
  return addAdjacentPairs(ctx, products);
}

/// pmaddubsw (bytes): unsigned bytes of the first source times signed bytes of the second,
/// adjacent products added with signed saturation to words (SDM vol. 2, PMADDUBSW).
llvm::Value *simd::multiplyAddBytes(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  // Each product fits in a word: 255 * -128 and 255 * 127.
  llvm::Value *products = ctx.ir.CreateMul(widen(ctx, a, false), widen(ctx, b, true));
  auto [evens, odds] = evensAndOdds(ctx, products);
  return ctx.ir.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, evens, odds);
}

namespace {

enum class Horizontal { Add, AddSat, Sub, SubSat };

/// phaddw/d, phaddsw, phsubw/d, phsubsw: in each 128-bit lane, the pairs of the first source
/// give the low half of the result and the pairs of the second the high half; phsub takes
/// the even element minus the odd one (SDM vol. 2, PHADDW/PHSUBW).
template <Horizontal Op>
llvm::Value *horizontal(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  int count = int(llvm::cast<llvm::FixedVectorType>(a->getType())->getNumElements());
  int perLane = 128 / int(a->getType()->getScalarSizeInBits());
  std::vector<int> evens, odds;
  for (int i = 0; i < count; ++i) {
    int lane = i / perLane, inLane = i % perLane;
    int half = perLane / 2;
    // Indices into a ++ b: b's elements start at `count`.
    int base = inLane < half ? lane * perLane + 2 * inLane
                             : count + lane * perLane + 2 * (inLane - half);
    evens.push_back(base);
    odds.push_back(base + 1);
  }
  llvm::Value *even = ir.CreateShuffleVector(a, b, evens);
  llvm::Value *odd = ir.CreateShuffleVector(a, b, odds);
  switch (Op) {
  case Horizontal::Add: return ir.CreateAdd(even, odd);
  case Horizontal::AddSat: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, even, odd);
  case Horizontal::Sub: return ir.CreateSub(even, odd);
  case Horizontal::SubSat: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::ssub_sat, even, odd);
  }
  return nullptr;
}

} // namespace

/// psadbw (bytes): for each quadword, the sum of the eight absolute byte differences in its
/// low word, the rest zero.
llvm::Value *simd::sumAbsoluteDifferences(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  llvm::Value *sums = widen(ctx, widen(ctx, widen(ctx, absoluteDifference(ctx, a, b), false),
                                       false), false);   // <n x i64>
  for (int step = 0; step < 3; ++step)
    sums = addAdjacentPairs(ctx, sums);
  return sums;
}

namespace {

/// mpsadbw: in each 128-bit lane, eight sums of absolute differences of four bytes: the four
/// bytes of the second source at imm[1:0]*4 against the first source's bytes from
/// imm[2]*4 + i, i = 0..7. The upper lane of the ymm form uses imm[5:3] (SDM vol. 2, MPSADBW).
llvm::Value *multipleSumAbsoluteDifferences(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  unsigned imm = unsigned(ctx.instr().op(ctx.firstSource() + 2).imm);
  int lanes = int(llvm::cast<llvm::FixedVectorType>(a->getType())->getNumElements()) / 16;
  std::vector<int> fromA, fromB;
  for (int lane = 0; lane < lanes; ++lane) {
    unsigned select = imm >> (3 * lane);
    int offsetA = int((select >> 2) & 1) * 4, offsetB = int(select & 3) * 4;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 4; ++j) {
        fromA.push_back(lane * 16 + offsetA + i + j);
        fromB.push_back(lane * 16 + offsetB + j);
      }
  }
  llvm::Value *differences = absoluteDifference(ctx, ctx.ir.CreateShuffleVector(a, fromA),
                                                ctx.ir.CreateShuffleVector(b, fromB));
  llvm::Value *sums = widen(ctx, differences, false);   // <8*4*lanes x i16>
  return addAdjacentPairs(ctx, addAdjacentPairs(ctx, sums));
}

/// phminposuw: the smallest unsigned word in bits 15:0, its lowest index in bits 18:16, the
/// rest of the xmm zero (SDM vol. 2, PHMINPOSUW).
LiftStatus liftMinimumPosition(LiftContext &ctx, const Instr &instr) {
  if (!hasVectorDestination(instr))
    return ctx.unsupported();
  auto &ir = ctx.ir;
  llvm::Value *words = ctx.readVector(1, ir.getInt16Ty());
  // value << 16 | index: the unsigned minimum of these keys is the smallest value at its
  // lowest index.
  llvm::Value *wide = widen(ctx, words, false);
  llvm::Value *keys = ir.CreateShl(wide, splat(wide, 16));
  std::vector<llvm::Constant *> indices;
  for (unsigned i = 0; i < 8; ++i)
    indices.push_back(ir.getInt32(i));
  keys = ir.CreateOr(keys, llvm::ConstantVector::get(indices));
  llvm::Value *minimum = ir.CreateUnaryIntrinsic(llvm::Intrinsic::vector_reduce_umin, keys);
  // Back to index << 16 | value, zero-extended into the xmm.
  llvm::Value *swapped = ir.CreateOr(ir.CreateLShr(minimum, 16),
                                     ir.CreateShl(ir.CreateAnd(minimum, 0xffff), 16));
  ctx.writeVector(0, ir.CreateZExt(swapped, ir.getInt128Ty()));
  return LiftStatus::Lifted;
}

// ---------------------------------------------------------------------------------------
// ptest, vtestps, vtestpd.

/// ZF = (src AND dest) is zero, CF = (src AND NOT dest) is zero; OF SF AF PF cleared. For
/// ptest all bits count, for vtestps/vtestpd only the sign bit of each element (SDM vol. 2,
/// PTEST, VTESTPD/VTESTPS).
template <unsigned ElementBits, bool SignBitsOnly>
LiftStatus liftTest(LiftContext &ctx, const Instr &instr) {
  if (!hasVectorDestination(instr))
    return ctx.unsupported();
  auto &ir = ctx.ir;
  llvm::Value *dest = ctx.readVector(0, ctx.intType(ElementBits));
  llvm::Value *source = ctx.readVector(1, ctx.intType(ElementBits));
  llvm::Value *mask = splat(dest, SignBitsOnly ? uint64_t(1) << (ElementBits - 1) : ~uint64_t(0));
  auto isZero = [&](llvm::Value *bits) {
    llvm::Value *masked = ir.CreateAnd(bits, mask);
    unsigned width = masked->getType()->getPrimitiveSizeInBits();
    return ir.CreateICmpEQ(ir.CreateBitCast(masked, ctx.intType(width)), ctx.constant(width, 0));
  };
  llvm::Value *zero = isZero(ir.CreateAnd(source, dest));
  llvm::Value *carry = isZero(ir.CreateAnd(source, ir.CreateNot(dest)));
  ctx.writeFlag(Var::ZF, zero);
  ctx.writeFlag(Var::CF, carry);
  for (Var flag : {Var::OF, Var::SF, Var::AF, Var::PF})
    ctx.writeFlag(flag, ir.getFalse());
  return LiftStatus::Lifted;
}

/// A mnemonic with its legacy SSE and its VEX form, which share one semantic.
struct SsePair {
  ZydisMnemonic legacy;
  ZydisMnemonic vex;
  Semantic semantic;
};

#define SSE_AND_VEX(name, semantic)                                                        \
  SsePair { ZYDIS_MNEMONIC_##name, ZYDIS_MNEMONIC_V##name, semantic }

using E = Elementwise;
const SsePair Pairs[] = {
    SSE_AND_VEX(PAND, (liftElementwise<E::And, 64>)),
    SSE_AND_VEX(PANDN, (liftElementwise<E::AndNot, 64>)),
    SSE_AND_VEX(POR, (liftElementwise<E::Or, 64>)),
    SSE_AND_VEX(PXOR, (liftElementwise<E::Xor, 64>)),

    SSE_AND_VEX(PCMPEQB, (liftElementwise<E::Equal, 8>)),
    SSE_AND_VEX(PCMPEQW, (liftElementwise<E::Equal, 16>)),
    SSE_AND_VEX(PCMPEQD, (liftElementwise<E::Equal, 32>)),
    SSE_AND_VEX(PCMPEQQ, (liftElementwise<E::Equal, 64>)),
    SSE_AND_VEX(PCMPGTB, (liftElementwise<E::Greater, 8>)),
    SSE_AND_VEX(PCMPGTW, (liftElementwise<E::Greater, 16>)),
    SSE_AND_VEX(PCMPGTD, (liftElementwise<E::Greater, 32>)),
    SSE_AND_VEX(PCMPGTQ, (liftElementwise<E::Greater, 64>)),

    SSE_AND_VEX(PADDB, (liftElementwise<E::Add, 8>)),
    SSE_AND_VEX(PADDW, (liftElementwise<E::Add, 16>)),
    SSE_AND_VEX(PADDD, (liftElementwise<E::Add, 32>)),
    SSE_AND_VEX(PADDQ, (liftElementwise<E::Add, 64>)),
    SSE_AND_VEX(PSUBB, (liftElementwise<E::Sub, 8>)),
    SSE_AND_VEX(PSUBW, (liftElementwise<E::Sub, 16>)),
    SSE_AND_VEX(PSUBD, (liftElementwise<E::Sub, 32>)),
    SSE_AND_VEX(PSUBQ, (liftElementwise<E::Sub, 64>)),
    SSE_AND_VEX(PADDSB, (liftElementwise<E::AddSatSigned, 8>)),
    SSE_AND_VEX(PADDSW, (liftElementwise<E::AddSatSigned, 16>)),
    SSE_AND_VEX(PADDUSB, (liftElementwise<E::AddSatUnsigned, 8>)),
    SSE_AND_VEX(PADDUSW, (liftElementwise<E::AddSatUnsigned, 16>)),
    SSE_AND_VEX(PSUBSB, (liftElementwise<E::SubSatSigned, 8>)),
    SSE_AND_VEX(PSUBSW, (liftElementwise<E::SubSatSigned, 16>)),
    SSE_AND_VEX(PSUBUSB, (liftElementwise<E::SubSatUnsigned, 8>)),
    SSE_AND_VEX(PSUBUSW, (liftElementwise<E::SubSatUnsigned, 16>)),

    SSE_AND_VEX(PSLLW, (liftShiftByCount<Shift::Left, 16>)),
    SSE_AND_VEX(PSLLD, (liftShiftByCount<Shift::Left, 32>)),
    SSE_AND_VEX(PSLLQ, (liftShiftByCount<Shift::Left, 64>)),
    SSE_AND_VEX(PSRLW, (liftShiftByCount<Shift::Right, 16>)),
    SSE_AND_VEX(PSRLD, (liftShiftByCount<Shift::Right, 32>)),
    SSE_AND_VEX(PSRLQ, (liftShiftByCount<Shift::Right, 64>)),
    SSE_AND_VEX(PSRAW, (liftShiftByCount<Shift::Arithmetic, 16>)),
    SSE_AND_VEX(PSRAD, (liftShiftByCount<Shift::Arithmetic, 32>)),
    SSE_AND_VEX(PSLLDQ, liftByteShift<Shift::Left>),
    SSE_AND_VEX(PSRLDQ, liftByteShift<Shift::Right>),

    SSE_AND_VEX(PMINUB, (liftElementwise<E::MinUnsigned, 8>)),
    SSE_AND_VEX(PMINUW, (liftElementwise<E::MinUnsigned, 16>)),
    SSE_AND_VEX(PMINUD, (liftElementwise<E::MinUnsigned, 32>)),
    SSE_AND_VEX(PMINSB, (liftElementwise<E::MinSigned, 8>)),
    SSE_AND_VEX(PMINSW, (liftElementwise<E::MinSigned, 16>)),
    SSE_AND_VEX(PMINSD, (liftElementwise<E::MinSigned, 32>)),
    SSE_AND_VEX(PMAXUB, (liftElementwise<E::MaxUnsigned, 8>)),
    SSE_AND_VEX(PMAXUW, (liftElementwise<E::MaxUnsigned, 16>)),
    SSE_AND_VEX(PMAXUD, (liftElementwise<E::MaxUnsigned, 32>)),
    SSE_AND_VEX(PMAXSB, (liftElementwise<E::MaxSigned, 8>)),
    SSE_AND_VEX(PMAXSW, (liftElementwise<E::MaxSigned, 16>)),
    SSE_AND_VEX(PMAXSD, (liftElementwise<E::MaxSigned, 32>)),
    SSE_AND_VEX(PABSB, liftAbs<8>),
    SSE_AND_VEX(PABSW, liftAbs<16>),
    SSE_AND_VEX(PABSD, liftAbs<32>),
    SSE_AND_VEX(PSIGNB, (liftElementwise<E::Sign, 8>)),
    SSE_AND_VEX(PSIGNW, (liftElementwise<E::Sign, 16>)),
    SSE_AND_VEX(PSIGND, (liftElementwise<E::Sign, 32>)),
    SSE_AND_VEX(PAVGB, (liftElementwise<E::AverageUnsigned, 8>)),
    SSE_AND_VEX(PAVGW, (liftElementwise<E::AverageUnsigned, 16>)),

    SSE_AND_VEX(PMULLW, (liftElementwise<E::MulLow, 16>)),
    SSE_AND_VEX(PMULLD, (liftElementwise<E::MulLow, 32>)),
    SSE_AND_VEX(PMULHW, (liftElementwise<E::MulHighSigned, 16>)),
    SSE_AND_VEX(PMULHUW, (liftElementwise<E::MulHighUnsigned, 16>)),
    SSE_AND_VEX(PMULHRSW, (liftElementwise<E::MulHighRoundScale, 16>)),
    SSE_AND_VEX(PMULUDQ, (liftElementwise<E::MulEvenUnsigned, 64>)),
    SSE_AND_VEX(PMULDQ, (liftElementwise<E::MulEvenSigned, 64>)),
    SSE_AND_VEX(PMADDWD, (liftTwoSources<16, multiplyAddWords>)),
    SSE_AND_VEX(PMADDUBSW, (liftTwoSources<8, multiplyAddBytes>)),
    SSE_AND_VEX(PSADBW, (liftTwoSources<8, sumAbsoluteDifferences>)),
    SSE_AND_VEX(MPSADBW, (liftTwoSources<8, multipleSumAbsoluteDifferences>)),
    SSE_AND_VEX(PHADDW, (liftTwoSources<16, horizontal<Horizontal::Add>>)),
    SSE_AND_VEX(PHADDD, (liftTwoSources<32, horizontal<Horizontal::Add>>)),
    SSE_AND_VEX(PHADDSW, (liftTwoSources<16, horizontal<Horizontal::AddSat>>)),
    SSE_AND_VEX(PHSUBW, (liftTwoSources<16, horizontal<Horizontal::Sub>>)),
    SSE_AND_VEX(PHSUBD, (liftTwoSources<32, horizontal<Horizontal::Sub>>)),
    SSE_AND_VEX(PHSUBSW, (liftTwoSources<16, horizontal<Horizontal::SubSat>>)),
    SSE_AND_VEX(PHMINPOSUW, liftMinimumPosition),

    SSE_AND_VEX(PTEST, (liftTest<64, false>)),
};

#undef SSE_AND_VEX

} // namespace

void registerSimdInteger(SemanticTable &table) {
  for (const SsePair &pair : Pairs) {
    table.add(pair.legacy, pair.semantic);
    table.add(pair.vex, pair.semantic);
  }
  // AVX2 per-element shifts and the AVX sign-bit tests have no legacy form.
  table.add(ZYDIS_MNEMONIC_VPSLLVD, liftElementwise<E::ShiftLeftEach, 32>);
  table.add(ZYDIS_MNEMONIC_VPSLLVQ, liftElementwise<E::ShiftLeftEach, 64>);
  table.add(ZYDIS_MNEMONIC_VPSRLVD, liftElementwise<E::ShiftRightEach, 32>);
  table.add(ZYDIS_MNEMONIC_VPSRLVQ, liftElementwise<E::ShiftRightEach, 64>);
  table.add(ZYDIS_MNEMONIC_VPSRAVD, liftElementwise<E::ShiftArithmeticEach, 32>);
  table.add(ZYDIS_MNEMONIC_VTESTPS, liftTest<32, true>);
  table.add(ZYDIS_MNEMONIC_VTESTPD, liftTest<64, true>);
}

/// The EVEX forms of vpslldq and vpsrldq, which have no write mask: the VEX semantics, zmm too.
void registerAvx512ByteShift(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VPSLLDQ, liftByteShift<Shift::Left>);
  table.add(ZYDIS_MNEMONIC_VPSRLDQ, liftByteShift<Shift::Right>);
}

} // namespace hoist
