// AVX-512 packed-integer arithmetic (EVEX forms of Zydis categories AVX512, LOGICAL and
// AVX2 of the integer mnemonics): add and subtract, the bitwise operations with their
// element sizes for masking (vpandd/q, vpandnd/q, vpord/q, vpxord/q), vpternlogd/q,
// minimum and maximum, and the compares and tests that write an opmask register (vpcmp*,
// vpcmpeq*, vpcmpgt*, vptestm*, vptestnm*), and the EVEX forms of the SSE/AVX operations
// (saturating add and subtract, averages, absolute values, multiplies, multiply-adds, sums of
// absolute differences), computed as SimdIntegerOps.h computes them; the blends by mask
// (vpblendm*), the dot products of VNNI (vpdpwssd, vpdpbusd), the 52-bit multiply-adds of
// IFMA (vpmadd52luq, vpmadd52huq), the population counts (vpopcntb/w/d/q), vpshufbitqmb
// and the moves between sign bits and opmasks (vpmovb2m ..., vpmovm2b ...). Masking, zeroing
// and broadcasts come from Avx512Operands.
#include "Semantics/Avx512Operands.h"
#include "Semantics/SimdHelpers.h"
#include "Semantics/SimdIntegerOps.h"

#include <llvm/IR/Intrinsics.h>

namespace hoist {
namespace {

using namespace avx512;

enum class Op { Add, Sub, And, AndNot, Or, Xor, MinU, MinS, MaxU, MaxS };

llvm::Value *apply(LiftContext &ctx, Op op, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  switch (op) {
  case Op::Add: return ir.CreateAdd(a, b);
  case Op::Sub: return ir.CreateSub(a, b);
  case Op::And: return ir.CreateAnd(a, b);
  case Op::AndNot: return ir.CreateAnd(ir.CreateNot(a), b);
  case Op::Or: return ir.CreateOr(a, b);
  case Op::Xor: return ir.CreateXor(a, b);
  case Op::MinU: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::umin, a, b);
  case Op::MinS: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::smin, a, b);
  case Op::MaxU: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::umax, a, b);
  case Op::MaxS: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::smax, a, b);
  }
  return nullptr;
}

/// dest = src1 op src2, element by element, under the write mask.
template <unsigned ElementBits, Op Operation>
LiftStatus liftElementwise(LiftContext &ctx, const Instr &) {
  return liftTwoSources(ctx, ctx.intType(ElementBits), [&](llvm::Value *a, llvm::Value *b) {
    return apply(ctx, Operation, a, b);
  });
}

/// The EVEX form of an SSE/AVX operation on two sources of `SourceBits` elements. `Memory`
/// Whole where a result element mixes several source elements (vpmaddwd: words in,
/// doublewords out), whose memory operand the CPU reads whatever the mask.
using VectorCompute = llvm::Value *(*)(LiftContext &ctx, llvm::Value *a, llvm::Value *b);
template <unsigned SourceBits, MemoryMask Memory, VectorCompute Function>
LiftStatus liftSseOperation(LiftContext &ctx, const Instr &) {
  return liftTwoSources(
      ctx, ctx.intType(SourceBits),
      [&](llvm::Value *a, llvm::Value *b) { return Function(ctx, a, b); }, Memory);
}

template <simd::Elementwise Op>
llvm::Value *sseElementwise(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  return simd::combine(ctx, Op, a, b);
}

/// An element-wise SSE/AVX operation in its EVEX form.
template <simd::Elementwise Op, unsigned ElementBits>
constexpr Semantic liftSseElementwise =
    liftSseOperation<ElementBits, MemoryMask::PerElement, sseElementwise<Op>>;

/// vpabsb/w/d/q: |src|, with |MIN| = MIN.
template <unsigned ElementBits> LiftStatus liftAbs(LiftContext &ctx, const Instr &) {
  return liftOneSource(ctx, ctx.intType(ElementBits), [&](llvm::Value *value) {
    return ctx.ir.CreateBinaryIntrinsic(llvm::Intrinsic::abs, value, ctx.ir.getFalse());
  });
}

/// vpopcntb/w (BITALG), vpopcntd/q (VPOPCNTDQ): the set bits of each element.
template <unsigned ElementBits> LiftStatus liftPopcount(LiftContext &ctx, const Instr &) {
  return liftOneSource(ctx, ctx.intType(ElementBits), [&](llvm::Value *value) {
    return ctx.ir.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, value);
  });
}

/// vpshufbitqmb k1 {k2}, zmm2, zmm3/m512 (BITALG): bit i of k1 is the bit of src1's qword
/// i / 8 that byte i of src2 (its low 6 bits) numbers, cleared where k2 disables it (SDM
/// vol. 2, VPSHUFBITQMB).
LiftStatus liftShuffleBitsToMask(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  llvm::Value *qwords = readSource(ctx, dataOperand(instr, 1), ir.getInt64Ty());
  llvm::Value *selectors = readSource(ctx, dataOperand(instr, 2), ir.getInt8Ty());
  unsigned count = simd::elementCount(selectors);
  llvm::SmallVector<int, 64> own;   // each byte's qword
  for (unsigned i = 0; i < count; ++i)
    own.push_back(int(i / 8));
  llvm::Value *spread = ir.CreateShuffleVector(qwords, own);
  llvm::Value *numbers = ir.CreateZExt(
      ir.CreateAnd(selectors, llvm::ConstantInt::get(selectors->getType(), 63)), spread->getType());
  llvm::Value *bits = ir.CreateTrunc(ir.CreateLShr(spread, numbers),
                                     llvm::FixedVectorType::get(ir.getInt1Ty(), count));
  writeMaskResult(ctx, bits);
  return LiftStatus::Lifted;
}

/// vpblendmb/w/d/q, vblendmps/pd: element i of src2 where the mask enables it, else of src1
/// (zero with {z}); without a mask, src2. The mask chooses here, so it is not applied again.
template <unsigned ElementBits> LiftStatus liftBlendByMask(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *a = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 2), element);
  llvm::Value *otherwise = instr.evex.zeroing ? llvm::Constant::getNullValue(a->getType()) : a;
  llvm::Value *mask = writeMask(ctx, simd::elementCount(a));
  ctx.writeVectorReg(instr.op(0).reg, ctx.ir.CreateSelect(mask, b, otherwise));
  return LiftStatus::Lifted;
}

/// vpdpwssd (Bytes false): each doubleword of the destination plus the two products of the
/// signed words of src1 and src2 in it; vpdpbusd: plus the four products of the unsigned
/// bytes of src1 and the signed bytes of src2; wrapping (SDM vol. 2, VPDPWSSD, VPDPBUSD). The
/// sources are read as doublewords, the elements the mask and a broadcast count.
template <bool Bytes> LiftStatus liftDotProduct(LiftContext &ctx, const Instr &) {
  return liftThreeSources(ctx, ctx.ir.getInt32Ty(), [&](llvm::Value *sum, llvm::Value *a,
                                                        llvm::Value *b) {
    unsigned count = simd::elementCount(sum), parts = Bytes ? 4 : 2;
    auto *narrow = llvm::FixedVectorType::get(ctx.intType(32 / parts), count * parts);
    auto *wide = llvm::FixedVectorType::get(ctx.ir.getInt32Ty(), count * parts);
    auto &ir = ctx.ir;
    llvm::Value *left = ir.CreateBitCast(a, narrow), *right = ir.CreateBitCast(b, narrow);
    llvm::Value *products = ir.CreateMul(
        Bytes ? ir.CreateZExt(left, wide) : ir.CreateSExt(left, wide), ir.CreateSExt(right, wide));
    for (unsigned part = 0; part < parts; ++part) {
      llvm::SmallVector<int, 16> pick;
      for (unsigned i = 0; i < count; ++i)
        pick.push_back(int(i * parts + part));
      sum = ir.CreateAdd(sum, ir.CreateShuffleVector(products, pick));
    }
    return sum;
  });
}

/// vpmadd52luq (High false), vpmadd52huq: each quadword of the destination plus bits 51:0
/// (or 103:52) of the 104-bit product of the low 52 bits of src1 and src2 (SDM vol. 2,
/// VPMADD52LUQ).
template <bool High> LiftStatus liftMultiplyAdd52(LiftContext &ctx, const Instr &) {
  return liftThreeSources(ctx, ctx.ir.getInt64Ty(), [&](llvm::Value *sum, llvm::Value *a,
                                                        llvm::Value *b) {
    auto &ir = ctx.ir;
    llvm::Value *low52 = llvm::ConstantInt::get(a->getType(), (uint64_t(1) << 52) - 1);
    auto *wide = llvm::FixedVectorType::get(ir.getInt128Ty(), simd::elementCount(a));
    llvm::Value *product = ir.CreateMul(ir.CreateZExt(ir.CreateAnd(a, low52), wide),
                                        ir.CreateZExt(ir.CreateAnd(b, low52), wide));
    if (High)
      product = ir.CreateLShr(product, llvm::ConstantInt::get(wide, 52));
    return ir.CreateAdd(sum, ir.CreateAnd(ir.CreateTrunc(product, a->getType()), low52));
  });
}

/// vpmovb2m/w2m/d2m/q2m k1, zmm1: the sign bit of each element into the opmask (no write mask).
template <unsigned ElementBits> LiftStatus liftSignsToMask(LiftContext &ctx, const Instr &instr) {
  llvm::Value *value = readSource(ctx, 1, ctx.intType(ElementBits));
  writeMaskRegister(ctx, instr.op(0).reg, simd::signBits(ctx, value));
  return LiftStatus::Lifted;
}

/// vpmovm2b/w/d/q zmm1, k1: each element all ones where its opmask bit is set, else zero.
template <unsigned ElementBits>
LiftStatus liftMaskToElements(LiftContext &ctx, const Instr &instr) {
  unsigned count = elementCount(instr, ElementBits);
  llvm::Value *bits = integerToBits(ctx, readMaskRegister(ctx, instr.op(1).reg), count);
  auto *vector = llvm::FixedVectorType::get(ctx.intType(ElementBits), count);
  ctx.writeVectorReg(instr.op(0).reg, ctx.ir.CreateSExt(bits, vector));
  return LiftStatus::Lifted;
}

/// vpternlogd/q: each result bit is bit (dest << 2 | src1 << 1 | src2) of imm8, the truth
/// table of any function of three bits; built as the OR of the minterms imm8 selects, which
/// folds to one operation for the usual tables (0x96 is a three-way xor).
template <unsigned ElementBits> LiftStatus liftTernaryLogic(LiftContext &ctx, const Instr &instr) {
  unsigned table = simd::immediate(instr, dataOperand(instr, 3));
  return liftThreeSources(ctx, ctx.intType(ElementBits), [&](llvm::Value *a, llvm::Value *b,
                                                             llvm::Value *c) {
    auto &ir = ctx.ir;
    llvm::Value *result = llvm::Constant::getNullValue(a->getType());
    for (unsigned minterm = 0; minterm < 8; ++minterm) {
      if (!(table >> minterm & 1))
        continue;
      llvm::Value *x = minterm & 4 ? a : ir.CreateNot(a);
      llvm::Value *y = minterm & 2 ? b : ir.CreateNot(b);
      llvm::Value *z = minterm & 1 ? c : ir.CreateNot(c);
      result = ir.CreateOr(result, ir.CreateAnd(ir.CreateAnd(x, y), z));
    }
    return result;
  });
}

/// The vpcmp predicate imm8[2:0] (SDM vol. 2, VPCMP: EQ, LT, LE, FALSE, NEQ, NLT, NLE, TRUE).
llvm::Value *comparePredicate(LiftContext &ctx, unsigned predicate, bool isSigned,
                              llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  auto *bits = llvm::FixedVectorType::get(ir.getInt1Ty(), simd::elementCount(a));
  switch (predicate & 7) {
  case 0: return ir.CreateICmpEQ(a, b);
  case 1: return isSigned ? ir.CreateICmpSLT(a, b) : ir.CreateICmpULT(a, b);
  case 2: return isSigned ? ir.CreateICmpSLE(a, b) : ir.CreateICmpULE(a, b);
  case 3: return llvm::Constant::getNullValue(bits);
  case 4: return ir.CreateICmpNE(a, b);
  case 5: return isSigned ? ir.CreateICmpSGE(a, b) : ir.CreateICmpUGE(a, b);
  case 6: return isSigned ? ir.CreateICmpSGT(a, b) : ir.CreateICmpUGT(a, b);
  default: return llvm::Constant::getAllOnesValue(bits);
  }
}

/// k1 {k2} = the predicate's result per element, cleared where k2 disables the element (bits
/// above the element count zero).
LiftStatus compareToMask(LiftContext &ctx, unsigned elementBits, unsigned predicate,
                         bool isSigned) {
  return liftTwoSourcesToMask(ctx, ctx.intType(elementBits), [&](llvm::Value *a, llvm::Value *b) {
    return comparePredicate(ctx, predicate, isSigned, a, b);
  });
}

/// vpcmp[u]b/w/d/q k1 {k2}, src1, src2, imm8.
template <unsigned ElementBits, bool Signed>
LiftStatus liftCompareToMask(LiftContext &ctx, const Instr &instr) {
  return compareToMask(ctx, ElementBits, simd::immediate(instr, dataOperand(instr, 3)), Signed);
}

/// vpcmpeq* (predicate 0) and vpcmpgt* (signed greater, predicate 6) into an opmask.
template <unsigned ElementBits, unsigned Predicate>
LiftStatus liftFixedCompareToMask(LiftContext &ctx, const Instr &) {
  return compareToMask(ctx, ElementBits, Predicate, true);
}

/// vptestm* (Zero false: src1 & src2 is not zero) and vptestnm* (Zero true: it is zero).
template <unsigned ElementBits, bool Zero>
LiftStatus liftTestToMask(LiftContext &ctx, const Instr &) {
  return liftTwoSourcesToMask(ctx, ctx.intType(ElementBits), [&](llvm::Value *a, llvm::Value *b) {
    llvm::Value *both = ctx.ir.CreateAnd(a, b);
    llvm::Value *zero = llvm::Constant::getNullValue(both->getType());
    return Zero ? ctx.ir.CreateICmpEQ(both, zero) : ctx.ir.CreateICmpNE(both, zero);
  });
}

} // namespace

void registerAvx512Integer(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VPADDB, liftElementwise<8, Op::Add>);
  table.add(ZYDIS_MNEMONIC_VPADDW, liftElementwise<16, Op::Add>);
  table.add(ZYDIS_MNEMONIC_VPADDD, liftElementwise<32, Op::Add>);
  table.add(ZYDIS_MNEMONIC_VPADDQ, liftElementwise<64, Op::Add>);
  table.add(ZYDIS_MNEMONIC_VPSUBB, liftElementwise<8, Op::Sub>);
  table.add(ZYDIS_MNEMONIC_VPSUBW, liftElementwise<16, Op::Sub>);
  table.add(ZYDIS_MNEMONIC_VPSUBD, liftElementwise<32, Op::Sub>);
  table.add(ZYDIS_MNEMONIC_VPSUBQ, liftElementwise<64, Op::Sub>);
  table.add(ZYDIS_MNEMONIC_VPANDD, liftElementwise<32, Op::And>);
  table.add(ZYDIS_MNEMONIC_VPANDQ, liftElementwise<64, Op::And>);
  table.add(ZYDIS_MNEMONIC_VPANDND, liftElementwise<32, Op::AndNot>);
  table.add(ZYDIS_MNEMONIC_VPANDNQ, liftElementwise<64, Op::AndNot>);
  table.add(ZYDIS_MNEMONIC_VPORD, liftElementwise<32, Op::Or>);
  table.add(ZYDIS_MNEMONIC_VPORQ, liftElementwise<64, Op::Or>);
  table.add(ZYDIS_MNEMONIC_VPXORD, liftElementwise<32, Op::Xor>);
  table.add(ZYDIS_MNEMONIC_VPXORQ, liftElementwise<64, Op::Xor>);
  // The floating-point logic (AVX512DQ) is bitwise too; the element size is the mask's.
  table.add(ZYDIS_MNEMONIC_VANDPS, liftElementwise<32, Op::And>);
  table.add(ZYDIS_MNEMONIC_VANDPD, liftElementwise<64, Op::And>);
  table.add(ZYDIS_MNEMONIC_VANDNPS, liftElementwise<32, Op::AndNot>);
  table.add(ZYDIS_MNEMONIC_VANDNPD, liftElementwise<64, Op::AndNot>);
  table.add(ZYDIS_MNEMONIC_VORPS, liftElementwise<32, Op::Or>);
  table.add(ZYDIS_MNEMONIC_VORPD, liftElementwise<64, Op::Or>);
  table.add(ZYDIS_MNEMONIC_VXORPS, liftElementwise<32, Op::Xor>);
  table.add(ZYDIS_MNEMONIC_VXORPD, liftElementwise<64, Op::Xor>);
  table.add(ZYDIS_MNEMONIC_VPMINUB, liftElementwise<8, Op::MinU>);
  table.add(ZYDIS_MNEMONIC_VPMINUW, liftElementwise<16, Op::MinU>);
  table.add(ZYDIS_MNEMONIC_VPMINUD, liftElementwise<32, Op::MinU>);
  table.add(ZYDIS_MNEMONIC_VPMINUQ, liftElementwise<64, Op::MinU>);
  table.add(ZYDIS_MNEMONIC_VPMINSB, liftElementwise<8, Op::MinS>);
  table.add(ZYDIS_MNEMONIC_VPMINSW, liftElementwise<16, Op::MinS>);
  table.add(ZYDIS_MNEMONIC_VPMINSD, liftElementwise<32, Op::MinS>);
  table.add(ZYDIS_MNEMONIC_VPMINSQ, liftElementwise<64, Op::MinS>);
  table.add(ZYDIS_MNEMONIC_VPMAXUB, liftElementwise<8, Op::MaxU>);
  table.add(ZYDIS_MNEMONIC_VPMAXUW, liftElementwise<16, Op::MaxU>);
  table.add(ZYDIS_MNEMONIC_VPMAXUD, liftElementwise<32, Op::MaxU>);
  table.add(ZYDIS_MNEMONIC_VPMAXUQ, liftElementwise<64, Op::MaxU>);
  table.add(ZYDIS_MNEMONIC_VPMAXSB, liftElementwise<8, Op::MaxS>);
  table.add(ZYDIS_MNEMONIC_VPMAXSW, liftElementwise<16, Op::MaxS>);
  table.add(ZYDIS_MNEMONIC_VPMAXSD, liftElementwise<32, Op::MaxS>);
  table.add(ZYDIS_MNEMONIC_VPMAXSQ, liftElementwise<64, Op::MaxS>);
  table.add(ZYDIS_MNEMONIC_VPTERNLOGD, liftTernaryLogic<32>);
  table.add(ZYDIS_MNEMONIC_VPTERNLOGQ, liftTernaryLogic<64>);
  table.add(ZYDIS_MNEMONIC_VPCMPB, liftCompareToMask<8, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPUB, liftCompareToMask<8, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPW, liftCompareToMask<16, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPUW, liftCompareToMask<16, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPD, liftCompareToMask<32, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPUD, liftCompareToMask<32, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPQ, liftCompareToMask<64, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPUQ, liftCompareToMask<64, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPEQB, liftFixedCompareToMask<8, 0>);
  table.add(ZYDIS_MNEMONIC_VPCMPEQW, liftFixedCompareToMask<16, 0>);
  table.add(ZYDIS_MNEMONIC_VPCMPEQD, liftFixedCompareToMask<32, 0>);
  table.add(ZYDIS_MNEMONIC_VPCMPEQQ, liftFixedCompareToMask<64, 0>);
  table.add(ZYDIS_MNEMONIC_VPCMPGTB, liftFixedCompareToMask<8, 6>);
  table.add(ZYDIS_MNEMONIC_VPCMPGTW, liftFixedCompareToMask<16, 6>);
  table.add(ZYDIS_MNEMONIC_VPCMPGTD, liftFixedCompareToMask<32, 6>);
  table.add(ZYDIS_MNEMONIC_VPCMPGTQ, liftFixedCompareToMask<64, 6>);
  table.add(ZYDIS_MNEMONIC_VPTESTMB, liftTestToMask<8, false>);
  table.add(ZYDIS_MNEMONIC_VPTESTMW, liftTestToMask<16, false>);
  table.add(ZYDIS_MNEMONIC_VPTESTMD, liftTestToMask<32, false>);
  table.add(ZYDIS_MNEMONIC_VPTESTMQ, liftTestToMask<64, false>);
  table.add(ZYDIS_MNEMONIC_VPTESTNMB, liftTestToMask<8, true>);
  table.add(ZYDIS_MNEMONIC_VPTESTNMW, liftTestToMask<16, true>);
  table.add(ZYDIS_MNEMONIC_VPTESTNMD, liftTestToMask<32, true>);
  table.add(ZYDIS_MNEMONIC_VPTESTNMQ, liftTestToMask<64, true>);

  using E = simd::Elementwise;
  table.add(ZYDIS_MNEMONIC_VPADDSB, liftSseElementwise<E::AddSatSigned, 8>);
  table.add(ZYDIS_MNEMONIC_VPADDSW, liftSseElementwise<E::AddSatSigned, 16>);
  table.add(ZYDIS_MNEMONIC_VPADDUSB, liftSseElementwise<E::AddSatUnsigned, 8>);
  table.add(ZYDIS_MNEMONIC_VPADDUSW, liftSseElementwise<E::AddSatUnsigned, 16>);
  table.add(ZYDIS_MNEMONIC_VPSUBSB, liftSseElementwise<E::SubSatSigned, 8>);
  table.add(ZYDIS_MNEMONIC_VPSUBSW, liftSseElementwise<E::SubSatSigned, 16>);
  table.add(ZYDIS_MNEMONIC_VPSUBUSB, liftSseElementwise<E::SubSatUnsigned, 8>);
  table.add(ZYDIS_MNEMONIC_VPSUBUSW, liftSseElementwise<E::SubSatUnsigned, 16>);
  table.add(ZYDIS_MNEMONIC_VPAVGB, liftSseElementwise<E::AverageUnsigned, 8>);
  table.add(ZYDIS_MNEMONIC_VPAVGW, liftSseElementwise<E::AverageUnsigned, 16>);
  table.add(ZYDIS_MNEMONIC_VPMULLW, liftSseElementwise<E::MulLow, 16>);
  table.add(ZYDIS_MNEMONIC_VPMULLD, liftSseElementwise<E::MulLow, 32>);
  table.add(ZYDIS_MNEMONIC_VPMULLQ, liftSseElementwise<E::MulLow, 64>);
  table.add(ZYDIS_MNEMONIC_VPMULHW, liftSseElementwise<E::MulHighSigned, 16>);
  table.add(ZYDIS_MNEMONIC_VPMULHUW, liftSseElementwise<E::MulHighUnsigned, 16>);
  table.add(ZYDIS_MNEMONIC_VPMULHRSW, liftSseElementwise<E::MulHighRoundScale, 16>);
  table.add(ZYDIS_MNEMONIC_VPMULUDQ, liftSseElementwise<E::MulEvenUnsigned, 64>);
  table.add(ZYDIS_MNEMONIC_VPMULDQ, liftSseElementwise<E::MulEvenSigned, 64>);
  // A result element of these mixes several source elements: memory is read whole.
  using W = MemoryMask;
  table.add(ZYDIS_MNEMONIC_VPMADDWD, liftSseOperation<16, W::Whole, simd::multiplyAddWords>);
  table.add(ZYDIS_MNEMONIC_VPMADDUBSW, liftSseOperation<8, W::Whole, simd::multiplyAddBytes>);
  table.add(ZYDIS_MNEMONIC_VPSADBW, liftSseOperation<8, W::Whole, simd::sumAbsoluteDifferences>);
  table.add(ZYDIS_MNEMONIC_VPABSB, liftAbs<8>);
  table.add(ZYDIS_MNEMONIC_VPABSW, liftAbs<16>);
  table.add(ZYDIS_MNEMONIC_VPABSD, liftAbs<32>);
  table.add(ZYDIS_MNEMONIC_VPABSQ, liftAbs<64>);
  table.add(ZYDIS_MNEMONIC_VPOPCNTB, liftPopcount<8>);
  table.add(ZYDIS_MNEMONIC_VPOPCNTW, liftPopcount<16>);
  table.add(ZYDIS_MNEMONIC_VPOPCNTD, liftPopcount<32>);
  table.add(ZYDIS_MNEMONIC_VPOPCNTQ, liftPopcount<64>);
  table.add(ZYDIS_MNEMONIC_VPSHUFBITQMB, liftShuffleBitsToMask);
  table.add(ZYDIS_MNEMONIC_VPBLENDMB, liftBlendByMask<8>);
  table.add(ZYDIS_MNEMONIC_VPBLENDMW, liftBlendByMask<16>);
  table.add(ZYDIS_MNEMONIC_VPBLENDMD, liftBlendByMask<32>);
  table.add(ZYDIS_MNEMONIC_VPBLENDMQ, liftBlendByMask<64>);
  table.add(ZYDIS_MNEMONIC_VBLENDMPS, liftBlendByMask<32>);
  table.add(ZYDIS_MNEMONIC_VBLENDMPD, liftBlendByMask<64>);
  table.add(ZYDIS_MNEMONIC_VPDPWSSD, liftDotProduct<false>);
  table.add(ZYDIS_MNEMONIC_VPDPBUSD, liftDotProduct<true>);
  table.add(ZYDIS_MNEMONIC_VPMADD52LUQ, liftMultiplyAdd52<false>);
  table.add(ZYDIS_MNEMONIC_VPMADD52HUQ, liftMultiplyAdd52<true>);
  table.add(ZYDIS_MNEMONIC_VPMOVB2M, liftSignsToMask<8>);
  table.add(ZYDIS_MNEMONIC_VPMOVW2M, liftSignsToMask<16>);
  table.add(ZYDIS_MNEMONIC_VPMOVD2M, liftSignsToMask<32>);
  table.add(ZYDIS_MNEMONIC_VPMOVQ2M, liftSignsToMask<64>);
  table.add(ZYDIS_MNEMONIC_VPMOVM2B, liftMaskToElements<8>);
  table.add(ZYDIS_MNEMONIC_VPMOVM2W, liftMaskToElements<16>);
  table.add(ZYDIS_MNEMONIC_VPMOVM2D, liftMaskToElements<32>);
  table.add(ZYDIS_MNEMONIC_VPMOVM2Q, liftMaskToElements<64>);
}

} // namespace hoist
