// SIMD shuffles, unpacks, packs, blends and widening moves (Zydis categories SSE, AVX and
// AVX2 for these mnemonics). The 256-bit forms of the SSE-era instructions work on each
// 128-bit lane separately (SDM vol. 1, 14.5); the AVX2 permutes cross lanes. The EVEX forms
// of the shuffles, unpacks, packs and permutes (registerAvx512Shuffle) share the semantics:
// their sources and result go through Avx512Operands (masks, broadcasts, zmm).
#include "Semantics/Avx512Operands.h"
#include "Semantics/Semantics.h"
#include "Semantics/SimdHelpers.h"

namespace hoist {
namespace {

using Mask = llvm::SmallVector<int, 32>;
using simd::immediate;

/// Elements of one 128-bit lane.
unsigned perLane(unsigned elementBits) { return 128 / elementBits; }

/// The immediate, the last explicit operand.
unsigned lastImmediate(const Instr &instr) { return immediate(instr, instr.explicitCount - 1); }

/// shufflevector of `a` and `b` where a mask element of -1 is a zero element (not poison).
llvm::Value *shuffleOrZero(LiftContext &ctx, llvm::Value *a, llvm::Value *b,
                           llvm::ArrayRef<int> mask) {
  Mask picks, zeros;
  bool anyZero = false;
  for (unsigned i = 0; i < mask.size(); ++i) {
    picks.push_back(mask[i] < 0 ? 0 : mask[i]);
    zeros.push_back(mask[i] < 0 ? int(mask.size()) : int(i));
    anyZero |= mask[i] < 0;
  }
  llvm::Value *result = ctx.ir.CreateShuffleVector(a, b, picks);
  if (anyZero)
    result =
        ctx.ir.CreateShuffleVector(result, llvm::Constant::getNullValue(result->getType()), zeros);
  return result;
}

bool isEvex(const Instr &instr) { return instr.encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX; }

/// Source `n` (1 or 2) as a vector of `element`: operand n (VEX), the destination and operand
/// 1 (legacy), or the nth data operand (EVEX). An EVEX memory source is read whole whatever
/// the write mask: each result element may come from any of its elements, and the CPU
/// faults on it with every element masked off.
llvm::Value *readShuffleSource(LiftContext &ctx, unsigned n, llvm::Type *element) {
  const Instr &instr = ctx.instr();
  if (isEvex(instr))
    return avx512::readSource(ctx, avx512::dataOperand(instr, n), element, 0,
                              avx512::MemoryMask::Whole);
  return ctx.readVector(ctx.firstSource() + n - 1, element);
}

/// The two sources of a two-source operation, each as a vector of `element`.
struct Sources {
  llvm::Value *first;
  llvm::Value *second;
  unsigned count;
};
Sources readSources(LiftContext &ctx, llvm::Type *element) {
  llvm::Value *first = readShuffleSource(ctx, 1, element);
  llvm::Value *second = readShuffleSource(ctx, 2, element);
  return {first, second, simd::elementCount(first)};
}

/// Writes a result of the destination register's width; EVEX under the write mask, which
/// counts the result's elements.
LiftStatus writeResult(LiftContext &ctx, llvm::Value *result) {
  if (isEvex(ctx.instr()))
    avx512::writeResult(ctx, result);
  else
    ctx.writeVectorReg(ctx.instr().op(0).reg, result);
  return LiftStatus::Lifted;
}

/// One source (operand 1) permuted by a mask from `pick(element, lane start)`.
template <typename Pick> LiftStatus liftPermute(LiftContext &ctx, unsigned elementBits, Pick pick) {
  llvm::Value *source = isEvex(ctx.instr()) ? readShuffleSource(ctx, 1, ctx.intType(elementBits))
                                            : ctx.readVector(1, ctx.intType(elementBits));
  unsigned count = simd::elementCount(source), lane = perLane(elementBits);
  Mask mask;
  for (unsigned i = 0; i < count; ++i)
    mask.push_back(int(pick(i % lane, i - i % lane)));
  return writeResult(ctx, ctx.ir.CreateShuffleVector(source, mask));
}

/// pshufd, vpermilps imm: doubleword i of each lane from element imm[2i+1:2i] of the lane.
LiftStatus liftPshufd(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  unsigned imm = lastImmediate(instr);
  return liftPermute(ctx, 32,
                     [&](unsigned i, unsigned base) { return base + ((imm >> (2 * i)) & 3); });
}

/// pshuflw (High false) and pshufhw: pshufd on the words of one half of each lane; the other
/// half is copied.
template <bool High> LiftStatus liftPshufWords(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftPermute(ctx, 16, [&](unsigned i, unsigned base) {
    unsigned half = High ? 4 : 0;
    if (i < half || i >= half + 4)
      return base + i;
    return base + half + ((imm >> (2 * (i - half))) & 3);
  });
}

/// vpermilpd imm: quadword i of the register from element imm[i] of its lane.
LiftStatus liftPermilpdImmediate(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftPermute(ctx, 64,
                     [&](unsigned i, unsigned base) { return base + ((imm >> (base + i)) & 1); });
}

/// vpermq, vpermpd imm: quadword i from quadword imm[2i+1:2i] of its 256-bit half (the ymm
/// register, or each half of a zmm register).
LiftStatus liftPermq(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftPermute(ctx, 64, [&](unsigned i, unsigned base) {
    unsigned position = base + i;
    return position - position % 4 + ((imm >> (2 * (position % 4))) & 3);
  });
}

/// Element i of `table` at the run-time index `indices[i] & (mask)` plus the start of its
/// lane when `inLane`: the exact element-wise form of a variable permute. The result has as
/// many elements as `indices` (vpermt2d: a table of two registers).
llvm::Value *permuteVariable(LiftContext &ctx, llvm::Value *table, llvm::Value *indices,
                             unsigned shift, unsigned indexMask, bool inLane) {
  unsigned count = simd::elementCount(indices);
  unsigned lane = 128 / table->getType()->getScalarSizeInBits();
  llvm::Type *element = table->getType()->getScalarType();
  llvm::Value *result = llvm::PoisonValue::get(llvm::FixedVectorType::get(element, count));
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *index = ctx.ir.CreateExtractElement(indices, uint64_t(i));
    if (shift)
      index = ctx.ir.CreateLShr(index, shift);
    index = ctx.ir.CreateAnd(index, llvm::ConstantInt::get(element, indexMask));
    if (inLane && i >= lane)
      index = ctx.ir.CreateAdd(index, llvm::ConstantInt::get(element, i - i % lane));
    result = ctx.ir.CreateInsertElement(result, ctx.ir.CreateExtractElement(table, index), i);
  }
  return result;
}

/// vpermilps (variable): element i from element control[i] & 3 of its lane; vpermilpd:
/// from element control[i] bit 1.
template <unsigned ElementBits> LiftStatus liftPermilVariable(LiftContext &ctx, const Instr &) {
  Sources s = readSources(ctx, ctx.intType(ElementBits));
  return writeResult(ctx, ElementBits == 32 ? permuteVariable(ctx, s.first, s.second, 0, 3, true)
                                            : permuteVariable(ctx, s.first, s.second, 1, 1, true));
}

/// vpermilps and vpermilpd take an imm8 or a vector of controls.
LiftStatus liftPermilps(LiftContext &ctx, const Instr &instr) {
  return instr.op(instr.explicitCount - 1).isImm() ? liftPshufd(ctx, instr)
                                                   : liftPermilVariable<32>(ctx, instr);
}
LiftStatus liftPermilpd(LiftContext &ctx, const Instr &instr) {
  return instr.op(instr.explicitCount - 1).isImm() ? liftPermilpdImmediate(ctx, instr)
                                                   : liftPermilVariable<64>(ctx, instr);
}

/// vpermd, vpermps (and EVEX vpermq, vpermpd with a vector of indices): element i of the
/// second source at index first[i] modulo the element count (SDM: the first source holds
/// the indices).
template <unsigned ElementBits> LiftStatus liftPermd(LiftContext &ctx, const Instr &) {
  Sources s = readSources(ctx, ctx.intType(ElementBits));
  return writeResult(ctx, permuteVariable(ctx, s.second, s.first, 0, s.count - 1, false));
}

/// vpermt2b/w/d/q/ps/pd (IndexInDestination false) and vpermi2* (true): element i of the
/// table first:second at index[i] modulo twice the element count. vpermt2 has the first table
/// in the destination and the indices in src1; vpermi2 the indices in the destination and the
/// tables in src1 and src2. A merge keeps the destination, whichever it holds.
template <unsigned ElementBits, bool IndexInDestination>
LiftStatus liftPermuteTwoTables(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *destination = avx512::readSource(ctx, avx512::dataOperand(instr, 0), element);
  Sources s = readSources(ctx, element);
  llvm::Value *indices = IndexInDestination ? destination : s.first;
  llvm::Value *low = IndexInDestination ? s.first : destination;
  Mask both;
  for (unsigned i = 0; i < 2 * s.count; ++i)
    both.push_back(int(i));
  llvm::Value *table = ctx.ir.CreateShuffleVector(low, s.second, both);
  return writeResult(ctx, permuteVariable(ctx, table, indices, 0, 2 * s.count - 1, false));
}

/// vshuff32x4, vshuff64x2, vshufi32x4, vshufi64x2: 128-bit lanes, the low half of the result's
/// from the first source and the high half from the second, each lane chosen by imm8 (two
/// bits a lane for zmm, one for ymm).
template <unsigned ElementBits> LiftStatus liftShuffleLanes(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftShuffle(ctx, ElementBits, [&](unsigned i, unsigned count) {
    unsigned per = perLane(ElementBits), lanes = count / per, lane = i / per;
    unsigned bits = lanes == 4 ? 2 : 1;
    unsigned pick = (imm >> (bits * lane)) & (lanes - 1);
    return int((lane < lanes / 2 ? 0 : count) + pick * per + i % per);
  });
}

/// valignd, valignq: the elements of src1:src2 (src1 the high half) from index imm8 modulo
/// the element count on, the low half kept.
template <unsigned ElementBits> LiftStatus liftAlign(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftShuffle(ctx, ElementBits, [&](unsigned i, unsigned count) {
    unsigned from = i + (imm & (count - 1));
    return int(from < count ? count + from : from - count);
  });
}

/// vmovsldup (Odd false), vmovshdup: the even (odd) doubleword of each pair in both.
template <bool Odd> LiftStatus liftDuplicatePairs(LiftContext &ctx, const Instr &) {
  return liftPermute(ctx, 32,
                     [](unsigned i, unsigned base) { return base + (Odd ? i | 1 : i & ~1u); });
}

/// pshufb, vpshufb: byte i of each lane from byte control[i] & 15 of the same lane, or zero
/// when bit 7 of control[i] is set.
LiftStatus liftPshufb(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  Sources s = readSources(ctx, ctx.ir.getInt8Ty());
  llvm::Value *picked = permuteVariable(ctx, s.first, s.second, 0, 15, true);
  llvm::Value *zero = llvm::Constant::getNullValue(picked->getType());
  return writeResult(ctx, ctx.ir.CreateSelect(simd::signBits(ctx, s.second), zero, picked));
}

/// Both sources shuffled by the mask `pick(i, count)`: an index into first:second (the second
/// source's elements start at `count`), or -1 for zero.
template <typename Pick> LiftStatus liftShuffle(LiftContext &ctx, unsigned elementBits, Pick pick) {
  Sources s = readSources(ctx, ctx.intType(elementBits));
  Mask mask;
  for (unsigned i = 0; i < s.count; ++i)
    mask.push_back(pick(i, s.count));
  return writeResult(ctx, shuffleOrZero(ctx, s.first, s.second, mask));
}

/// shufps: per lane, elements 0-1 from the first source and 2-3 from the second, each chosen
/// by two immediate bits.
LiftStatus liftShufps(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftShuffle(ctx, 32, [&](unsigned i, unsigned count) {
    unsigned base = i - i % 4, pick = (imm >> (2 * (i % 4))) & 3;
    return int((i % 4 < 2 ? 0 : count) + base + pick);
  });
}

/// shufpd: quadword 2k from the first source, 2k+1 from the second, each chosen by one bit.
LiftStatus liftShufpd(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftShuffle(ctx, 64, [&](unsigned i, unsigned count) {
    return int((i % 2 ? count : 0) + (i - i % 2) + ((imm >> i) & 1));
  });
}

/// unpck*, punpck*: per lane, the low (or high) halves of both sources interleaved.
template <unsigned ElementBits, bool High>
LiftStatus liftUnpack(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  unsigned lane = perLane(ElementBits), half = lane / 2;
  return liftShuffle(ctx, ElementBits, [&](unsigned i, unsigned count) {
    unsigned base = i - i % lane, j = (i % lane) / 2 + (High ? half : 0);
    return int((i % 2 ? count : 0) + base + j);
  });
}

/// packsswb, packssdw, packuswb, packusdw: both sources narrowed with signed (or unsigned)
/// saturation of the signed input; per lane, the first source's then the second's.
template <unsigned ElementBits, bool Unsigned>
LiftStatus liftPack(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  Sources s = readSources(ctx, ctx.intType(ElementBits));
  unsigned narrow = ElementBits / 2;
  llvm::APInt low =
      Unsigned ? llvm::APInt::getZero(narrow) : llvm::APInt::getSignedMinValue(narrow);
  llvm::APInt high =
      Unsigned ? llvm::APInt::getMaxValue(narrow) : llvm::APInt::getSignedMaxValue(narrow);
  auto saturate = [&](llvm::Value *v) {
    llvm::Type *type = v->getType();
    llvm::Value *lo =
        llvm::ConstantInt::get(type, Unsigned ? low.zext(ElementBits) : low.sext(ElementBits));
    llvm::Value *hi = llvm::ConstantInt::get(type, high.zext(ElementBits));
    llvm::Value *clamped = ctx.ir.CreateBinaryIntrinsic(
        llvm::Intrinsic::smin, ctx.ir.CreateBinaryIntrinsic(llvm::Intrinsic::smax, v, lo), hi);
    return ctx.ir.CreateTrunc(clamped, ctx.vectorType(ctx.intType(narrow), s.count * narrow));
  };
  llvm::Value *first = saturate(s.first), *second = saturate(s.second);
  unsigned lane = perLane(ElementBits);
  Mask mask;
  for (unsigned i = 0; i < 2 * s.count; ++i) {
    unsigned laneIndex = i / (2 * lane), j = i % (2 * lane);
    mask.push_back(int((j < lane ? 0 : s.count) + laneIndex * lane + j % lane));
  }
  return writeResult(ctx, ctx.ir.CreateShuffleVector(first, second, mask));
}

/// palignr: per lane, the 32 bytes first:second shifted right by imm bytes, the low 16 kept;
/// bytes shifted in from beyond are zero.
LiftStatus liftPalignr(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  unsigned imm = lastImmediate(instr);
  return liftShuffle(ctx, 8, [&](unsigned i, unsigned count) {
    unsigned base = i - i % 16, k = i % 16 + imm;
    return k < 16 ? int(count + base + k) : k < 32 ? int(base + k - 16) : -1;
  });
}

/// pblendw, blendps, blendpd, vpblendd: element i from the second source where immediate bit
/// (i modulo `ImmBits`) is set. pblendw repeats its 8 bits for every lane.
template <unsigned ElementBits, unsigned ImmBits>
LiftStatus liftBlendImmediate(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftShuffle(ctx, ElementBits, [&](unsigned i, unsigned count) {
    return int((imm >> (i % ImmBits)) & 1 ? count + i : i);
  });
}

/// pblendvb, blendvps, blendvpd and the four-operand VEX forms: element i from the second
/// source where the mask element's sign bit is set. The legacy mask is the implicit xmm0.
template <unsigned ElementBits> LiftStatus liftBlendVariable(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  Sources s = readSources(ctx, element);
  llvm::Value *mask = ctx.readVectorReg(instr.op(instr.isVexOrEvex() ? 3 : 2).reg, element);
  return writeResult(ctx, ctx.ir.CreateSelect(simd::signBits(ctx, mask), s.second, s.first));
}

/// vperm2f128, vperm2i128: each destination lane is the lane imm[1:0] (imm[5:4] for the
/// high one) of first:second, or zero when imm[3] (imm[7]) is set.
LiftStatus liftPerm2Lanes(LiftContext &ctx, const Instr &instr) {
  unsigned imm = lastImmediate(instr);
  return liftShuffle(ctx, 64, [&](unsigned i, unsigned) {
    unsigned select = imm >> (4 * (i / 2));
    return select & 8 ? -1 : int(2 * (select & 3) + i % 2);
  });
}

/// pmovzx*, pmovsx*: the low elements of the source, zero- or sign-extended to fill the
/// destination. Memory sources are exactly as wide as they need to be.
template <unsigned FromBits, unsigned ToBits, bool Signed>
LiftStatus liftExtend(LiftContext &ctx, const Instr &instr) {
  unsigned count = LiftContext::vectorRegisterBits(instr.op(0).reg) / ToBits;
  llvm::Value *source = simd::readVectorBits(ctx, 1, ctx.intType(FromBits), count * FromBits);
  llvm::Type *type = ctx.vectorType(ctx.intType(ToBits), count * ToBits);
  return writeResult(ctx,
                     Signed ? ctx.ir.CreateSExt(source, type) : ctx.ir.CreateZExt(source, type));
}

void addBoth(SemanticTable &table, ZydisMnemonic legacy, ZydisMnemonic vex, Semantic semantic) {
  table.add(legacy, semantic);
  table.add(vex, semantic);
}

void registerExtends(SemanticTable &table) {
  using M = ZydisMnemonic;
  struct Entry {
    M zxLegacy, zxVex, sxLegacy, sxVex;
    Semantic zero, sign;
  };
  const Entry entries[] = {
      {ZYDIS_MNEMONIC_PMOVZXBW, ZYDIS_MNEMONIC_VPMOVZXBW, ZYDIS_MNEMONIC_PMOVSXBW,
       ZYDIS_MNEMONIC_VPMOVSXBW, liftExtend<8, 16, false>, liftExtend<8, 16, true>},
      {ZYDIS_MNEMONIC_PMOVZXBD, ZYDIS_MNEMONIC_VPMOVZXBD, ZYDIS_MNEMONIC_PMOVSXBD,
       ZYDIS_MNEMONIC_VPMOVSXBD, liftExtend<8, 32, false>, liftExtend<8, 32, true>},
      {ZYDIS_MNEMONIC_PMOVZXBQ, ZYDIS_MNEMONIC_VPMOVZXBQ, ZYDIS_MNEMONIC_PMOVSXBQ,
       ZYDIS_MNEMONIC_VPMOVSXBQ, liftExtend<8, 64, false>, liftExtend<8, 64, true>},
      {ZYDIS_MNEMONIC_PMOVZXWD, ZYDIS_MNEMONIC_VPMOVZXWD, ZYDIS_MNEMONIC_PMOVSXWD,
       ZYDIS_MNEMONIC_VPMOVSXWD, liftExtend<16, 32, false>, liftExtend<16, 32, true>},
      {ZYDIS_MNEMONIC_PMOVZXWQ, ZYDIS_MNEMONIC_VPMOVZXWQ, ZYDIS_MNEMONIC_PMOVSXWQ,
       ZYDIS_MNEMONIC_VPMOVSXWQ, liftExtend<16, 64, false>, liftExtend<16, 64, true>},
      {ZYDIS_MNEMONIC_PMOVZXDQ, ZYDIS_MNEMONIC_VPMOVZXDQ, ZYDIS_MNEMONIC_PMOVSXDQ,
       ZYDIS_MNEMONIC_VPMOVSXDQ, liftExtend<32, 64, false>, liftExtend<32, 64, true>},
  };
  for (const Entry &entry : entries) {
    addBoth(table, entry.zxLegacy, entry.zxVex, entry.zero);
    addBoth(table, entry.sxLegacy, entry.sxVex, entry.sign);
  }
}

/// vpermt2* and vpermi2* of one element width.
template <unsigned ElementBits>
void addTwoTablePermutes(SemanticTable &table, ZydisMnemonic tableInDestination,
                         ZydisMnemonic indexInDestination) {
  table.add(tableInDestination, liftPermuteTwoTables<ElementBits, false>);
  table.add(indexInDestination, liftPermuteTwoTables<ElementBits, true>);
}

} // namespace

void registerSimdShuffle(SemanticTable &table) {
  addBoth(table, ZYDIS_MNEMONIC_PSHUFD, ZYDIS_MNEMONIC_VPSHUFD, liftPshufd);
  table.add(ZYDIS_MNEMONIC_VPERMILPS, liftPermilps);
  table.add(ZYDIS_MNEMONIC_VPERMILPD, liftPermilpd);
  addBoth(table, ZYDIS_MNEMONIC_PSHUFLW, ZYDIS_MNEMONIC_VPSHUFLW, liftPshufWords<false>);
  addBoth(table, ZYDIS_MNEMONIC_PSHUFHW, ZYDIS_MNEMONIC_VPSHUFHW, liftPshufWords<true>);
  addBoth(table, ZYDIS_MNEMONIC_PSHUFB, ZYDIS_MNEMONIC_VPSHUFB, liftPshufb);
  addBoth(table, ZYDIS_MNEMONIC_SHUFPS, ZYDIS_MNEMONIC_VSHUFPS, liftShufps);
  addBoth(table, ZYDIS_MNEMONIC_SHUFPD, ZYDIS_MNEMONIC_VSHUFPD, liftShufpd);
  addBoth(table, ZYDIS_MNEMONIC_UNPCKLPS, ZYDIS_MNEMONIC_VUNPCKLPS, liftUnpack<32, false>);
  addBoth(table, ZYDIS_MNEMONIC_UNPCKHPS, ZYDIS_MNEMONIC_VUNPCKHPS, liftUnpack<32, true>);
  addBoth(table, ZYDIS_MNEMONIC_UNPCKLPD, ZYDIS_MNEMONIC_VUNPCKLPD, liftUnpack<64, false>);
  addBoth(table, ZYDIS_MNEMONIC_UNPCKHPD, ZYDIS_MNEMONIC_VUNPCKHPD, liftUnpack<64, true>);
  addBoth(table, ZYDIS_MNEMONIC_PUNPCKLBW, ZYDIS_MNEMONIC_VPUNPCKLBW, liftUnpack<8, false>);
  addBoth(table, ZYDIS_MNEMONIC_PUNPCKLWD, ZYDIS_MNEMONIC_VPUNPCKLWD, liftUnpack<16, false>);
  addBoth(table, ZYDIS_MNEMONIC_PUNPCKLDQ, ZYDIS_MNEMONIC_VPUNPCKLDQ, liftUnpack<32, false>);
  addBoth(table, ZYDIS_MNEMONIC_PUNPCKLQDQ, ZYDIS_MNEMONIC_VPUNPCKLQDQ, liftUnpack<64, false>);
  addBoth(table, ZYDIS_MNEMONIC_PUNPCKHBW, ZYDIS_MNEMONIC_VPUNPCKHBW, liftUnpack<8, true>);
  addBoth(table, ZYDIS_MNEMONIC_PUNPCKHWD, ZYDIS_MNEMONIC_VPUNPCKHWD, liftUnpack<16, true>);
  addBoth(table, ZYDIS_MNEMONIC_PUNPCKHDQ, ZYDIS_MNEMONIC_VPUNPCKHDQ, liftUnpack<32, true>);
  addBoth(table, ZYDIS_MNEMONIC_PUNPCKHQDQ, ZYDIS_MNEMONIC_VPUNPCKHQDQ, liftUnpack<64, true>);
  addBoth(table, ZYDIS_MNEMONIC_PACKSSWB, ZYDIS_MNEMONIC_VPACKSSWB, liftPack<16, false>);
  addBoth(table, ZYDIS_MNEMONIC_PACKSSDW, ZYDIS_MNEMONIC_VPACKSSDW, liftPack<32, false>);
  addBoth(table, ZYDIS_MNEMONIC_PACKUSWB, ZYDIS_MNEMONIC_VPACKUSWB, liftPack<16, true>);
  addBoth(table, ZYDIS_MNEMONIC_PACKUSDW, ZYDIS_MNEMONIC_VPACKUSDW, liftPack<32, true>);
  addBoth(table, ZYDIS_MNEMONIC_PALIGNR, ZYDIS_MNEMONIC_VPALIGNR, liftPalignr);
  addBoth(table, ZYDIS_MNEMONIC_PBLENDW, ZYDIS_MNEMONIC_VPBLENDW, liftBlendImmediate<16, 8>);
  addBoth(table, ZYDIS_MNEMONIC_BLENDPS, ZYDIS_MNEMONIC_VBLENDPS, liftBlendImmediate<32, 8>);
  addBoth(table, ZYDIS_MNEMONIC_BLENDPD, ZYDIS_MNEMONIC_VBLENDPD, liftBlendImmediate<64, 4>);
  table.add(ZYDIS_MNEMONIC_VPBLENDD, liftBlendImmediate<32, 8>);
  addBoth(table, ZYDIS_MNEMONIC_PBLENDVB, ZYDIS_MNEMONIC_VPBLENDVB, liftBlendVariable<8>);
  addBoth(table, ZYDIS_MNEMONIC_BLENDVPS, ZYDIS_MNEMONIC_VBLENDVPS, liftBlendVariable<32>);
  addBoth(table, ZYDIS_MNEMONIC_BLENDVPD, ZYDIS_MNEMONIC_VBLENDVPD, liftBlendVariable<64>);
  table.add(ZYDIS_MNEMONIC_VPERM2F128, liftPerm2Lanes);
  table.add(ZYDIS_MNEMONIC_VPERM2I128, liftPerm2Lanes);
  table.add(ZYDIS_MNEMONIC_VPERMD, liftPermd<32>);
  table.add(ZYDIS_MNEMONIC_VPERMPS, liftPermd<32>);
  table.add(ZYDIS_MNEMONIC_VPERMQ, liftPermq);
  table.add(ZYDIS_MNEMONIC_VPERMPD, liftPermq);
  registerExtends(table);
}

void registerAvx512Shuffle(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VPSHUFD, liftPshufd);
  table.add(ZYDIS_MNEMONIC_VPSHUFLW, liftPshufWords<false>);
  table.add(ZYDIS_MNEMONIC_VPSHUFHW, liftPshufWords<true>);
  table.add(ZYDIS_MNEMONIC_VPSHUFB, liftPshufb);
  table.add(ZYDIS_MNEMONIC_VSHUFPS, liftShufps);
  table.add(ZYDIS_MNEMONIC_VSHUFPD, liftShufpd);
  table.add(ZYDIS_MNEMONIC_VUNPCKLPS, liftUnpack<32, false>);
  table.add(ZYDIS_MNEMONIC_VUNPCKHPS, liftUnpack<32, true>);
  table.add(ZYDIS_MNEMONIC_VUNPCKLPD, liftUnpack<64, false>);
  table.add(ZYDIS_MNEMONIC_VUNPCKHPD, liftUnpack<64, true>);
  table.add(ZYDIS_MNEMONIC_VPUNPCKLBW, liftUnpack<8, false>);
  table.add(ZYDIS_MNEMONIC_VPUNPCKLWD, liftUnpack<16, false>);
  table.add(ZYDIS_MNEMONIC_VPUNPCKLDQ, liftUnpack<32, false>);
  table.add(ZYDIS_MNEMONIC_VPUNPCKLQDQ, liftUnpack<64, false>);
  table.add(ZYDIS_MNEMONIC_VPUNPCKHBW, liftUnpack<8, true>);
  table.add(ZYDIS_MNEMONIC_VPUNPCKHWD, liftUnpack<16, true>);
  table.add(ZYDIS_MNEMONIC_VPUNPCKHDQ, liftUnpack<32, true>);
  table.add(ZYDIS_MNEMONIC_VPUNPCKHQDQ, liftUnpack<64, true>);
  table.add(ZYDIS_MNEMONIC_VPACKSSWB, liftPack<16, false>);
  table.add(ZYDIS_MNEMONIC_VPACKSSDW, liftPack<32, false>);
  table.add(ZYDIS_MNEMONIC_VPACKUSWB, liftPack<16, true>);
  table.add(ZYDIS_MNEMONIC_VPACKUSDW, liftPack<32, true>);
  table.add(ZYDIS_MNEMONIC_VPALIGNR, liftPalignr);
  table.add(ZYDIS_MNEMONIC_VPERMD, liftPermd<32>);
  table.add(ZYDIS_MNEMONIC_VPERMPS, liftPermd<32>);
  table.add(ZYDIS_MNEMONIC_VPERMW, liftPermd<16>);
  table.add(ZYDIS_MNEMONIC_VPERMB, liftPermd<8>);
  addTwoTablePermutes<8>(table, ZYDIS_MNEMONIC_VPERMT2B, ZYDIS_MNEMONIC_VPERMI2B);
  addTwoTablePermutes<16>(table, ZYDIS_MNEMONIC_VPERMT2W, ZYDIS_MNEMONIC_VPERMI2W);
  addTwoTablePermutes<32>(table, ZYDIS_MNEMONIC_VPERMT2D, ZYDIS_MNEMONIC_VPERMI2D);
  addTwoTablePermutes<64>(table, ZYDIS_MNEMONIC_VPERMT2Q, ZYDIS_MNEMONIC_VPERMI2Q);
  addTwoTablePermutes<32>(table, ZYDIS_MNEMONIC_VPERMT2PS, ZYDIS_MNEMONIC_VPERMI2PS);
  addTwoTablePermutes<64>(table, ZYDIS_MNEMONIC_VPERMT2PD, ZYDIS_MNEMONIC_VPERMI2PD);
  for (ZydisMnemonic mnemonic : {ZYDIS_MNEMONIC_VSHUFF32X4, ZYDIS_MNEMONIC_VSHUFI32X4})
    table.add(mnemonic, liftShuffleLanes<32>);
  for (ZydisMnemonic mnemonic : {ZYDIS_MNEMONIC_VSHUFF64X2, ZYDIS_MNEMONIC_VSHUFI64X2})
    table.add(mnemonic, liftShuffleLanes<64>);
  table.add(ZYDIS_MNEMONIC_VPERMILPS, liftPermilps);
  table.add(ZYDIS_MNEMONIC_VPERMILPD, liftPermilpd);
  table.add(ZYDIS_MNEMONIC_VALIGND, liftAlign<32>);
  table.add(ZYDIS_MNEMONIC_VALIGNQ, liftAlign<64>);
  table.add(ZYDIS_MNEMONIC_VMOVSLDUP, liftDuplicatePairs<false>);
  table.add(ZYDIS_MNEMONIC_VMOVSHDUP, liftDuplicatePairs<true>);
  // vpermq and vpermpd take an imm8 or a vector of indices.
  for (ZydisMnemonic mnemonic : {ZYDIS_MNEMONIC_VPERMQ, ZYDIS_MNEMONIC_VPERMPD})
    table.add(mnemonic, [](LiftContext &ctx, const Instr &instr) {
      return instr.op(instr.explicitCount - 1).isImm() ? liftPermq(ctx, instr)
                                                       : liftPermd<64>(ctx, instr);
    });
}

} // namespace hoist
