// AVX-512 data movement (EVEX forms of Zydis categories DATAXFER and BROADCAST): the whole-
// vector moves with their element sizes for masking (vmovdqu8/16/32/64, vmovdqa32/64,
// vmovups/aps/upd/apd), the non-temporal moves, the broadcasts from an xmm register, memory
// or a general-purpose register, vmovd/vmovq, vmovss/vmovsd, the inserts and extracts of
// 128- and 256-bit pieces (vinserti32x4 ... vextractf64x4), the broadcasts of pieces
// (vbroadcasti32x4 ... vbroadcastf64x4), the zero and sign extensions (vpmovzx*, vpmovsx*)
// and the narrowing moves (vpmovqd ... vpmovuswb). Masking, zeroing and fault suppression
// come from Avx512Operands.
#include "Semantics/Avx512Operands.h"
#include "Semantics/SimdHelpers.h"

namespace hoist {
namespace {

using namespace avx512;

/// A whole-vector move whose masking works on `ElementBits` elements; `Aligned` forms fault
/// (#GP) on memory not aligned to the vector length, masked or not.
template <unsigned ElementBits, bool Aligned>
LiftStatus liftMaskedMove(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  unsigned alignment = Aligned ? vectorBits(instr) / 8 : 0;
  llvm::Value *value = readSource(ctx, dataOperand(instr, 1), element, alignment);
  writeResult(ctx, value, alignment);
  return LiftStatus::Lifted;
}

/// vpbroadcastb/w/d/q, vbroadcastss/sd: the low element of an xmm register, an element in
/// memory or the low bits of a GPR, in every element.
template <unsigned ElementBits> LiftStatus liftBroadcast(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *value = ctx.readScalar(dataOperand(instr, 1), element);
  writeResult(ctx, ctx.ir.CreateVectorSplat(elementCount(instr, ElementBits), value));
  return LiftStatus::Lifted;
}

/// vmovd, vmovq (EVEX, no write mask): a GPR, memory or the low element of an xmm register
/// into the low element of an xmm register, the rest of the zmm register zeroed; or the low
/// element of an xmm register into a GPR (zero-extended) or memory.
template <unsigned Bits> LiftStatus liftMoveElement(LiftContext &ctx, const Instr &instr) {
  const Operand &destination = instr.op(0);
  llvm::Value *value = ctx.readScalar(dataOperand(instr, 1), ctx.intType(Bits));
  if (!destination.isReg() || !LiftContext::isVectorRegister(destination.reg)) {
    ctx.writeOperand(0, value);
    return LiftStatus::Lifted;
  }
  llvm::Type *vector = ctx.vectorType(ctx.intType(Bits), 128);
  ctx.writeVectorReg(destination.reg, ctx.ir.CreateInsertElement(
                                          llvm::Constant::getNullValue(vector), value, uint64_t(0)));
  return LiftStatus::Lifted;
}

/// The piece selected by imm8 among the `PieceBits` pieces of the vector length.
unsigned pieceIndex(const Instr &instr, unsigned pieceBits) {
  return simd::immediate(instr, instr.explicitCount - 1) & (vectorBits(instr) / pieceBits - 1);
}

/// vinserti32x4, vinserti64x2, vinserti32x8, vinserti64x4 and the vinsertf forms: src1 with
/// the piece imm8 selects replaced by src2 (xmm/ymm or memory, read whole: the CPU faults on
/// it with every element masked off), under a write mask of `ElementBits` elements.
template <unsigned ElementBits, unsigned PieceBits>
LiftStatus liftInsertPiece(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *base = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *piece = simd::readVectorBits(ctx, dataOperand(instr, 2), element, PieceBits);
  unsigned count = elementCount(instr, ElementBits), per = PieceBits / ElementBits;
  unsigned first = pieceIndex(instr, PieceBits) * per;
  llvm::SmallVector<int, 64> mask;
  for (unsigned i = 0; i < count; ++i)
    mask.push_back(int(i >= first && i < first + per ? count + i - first : i));
  writeResult(ctx, ctx.ir.CreateShuffleVector(base, simd::resize(ctx, piece, count), mask));
  return LiftStatus::Lifted;
}

/// vextracti32x4 ... vextractf64x4: the piece imm8 selects, into an xmm/ymm register under the
/// write mask, or to memory. A masked store to memory is not lifted: this CPU faults on its
/// whole destination with every element masked off, and writes only the enabled elements.
template <unsigned ElementBits, unsigned PieceBits>
LiftStatus liftExtractPiece(LiftContext &ctx, const Instr &instr) {
  if (instr.op(0).isMem() && instr.evex.mask != ZYDIS_REGISTER_NONE)
    return ctx.unsupported();
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *source = readSource(ctx, dataOperand(instr, 1), element);
  unsigned per = PieceBits / ElementBits, first = pieceIndex(instr, PieceBits) * per;
  llvm::SmallVector<int, 16> mask;
  for (unsigned i = 0; i < per; ++i)
    mask.push_back(int(first + i));
  writeResult(ctx, ctx.ir.CreateShuffleVector(source, mask));
  return LiftStatus::Lifted;
}

/// vbroadcasti32x4, vbroadcasti64x2, vbroadcasti32x8, vbroadcasti64x4 and the vbroadcastf forms:
/// a 128- or 256-bit piece of memory repeated over the vector length, under the write mask.
/// Element j of the piece is read only when the mask enables an element it fills, as the CPU
/// does (it does not fault on the others).
template <unsigned ElementBits, unsigned PieceBits>
LiftStatus liftBroadcastPiece(LiftContext &ctx, const Instr &instr) {
  const Operand &operand = instr.op(dataOperand(instr, 1));
  if (!operand.isMem())
    return ctx.unsupported();
  llvm::Type *element = ctx.intType(ElementBits);
  unsigned count = elementCount(instr, ElementBits), per = PieceBits / ElementBits;
  auto *pieceType = llvm::FixedVectorType::get(element, per);
  llvm::Value *address = ctx.effectiveAddress(operand);
  llvm::Value *piece;
  if (instr.evex.mask == ZYDIS_REGISTER_NONE) {
    piece = ctx.load(address, pieceType);
  } else {
    llvm::Value *mask = writeMask(ctx, count), *needed = nullptr;
    for (unsigned first = 0; first < count; first += per) {
      llvm::SmallVector<int, 16> repeat;
      for (unsigned j = 0; j < per; ++j)
        repeat.push_back(int(first + j));
      llvm::Value *part = ctx.ir.CreateShuffleVector(mask, repeat);
      needed = needed ? ctx.ir.CreateOr(needed, part) : part;
    }
    piece = ctx.ir.CreateMaskedLoad(pieceType, simd::memoryPointer(ctx, address), llvm::Align(1),
                                    needed, llvm::Constant::getNullValue(pieceType));
  }
  llvm::SmallVector<int, 64> spread;
  for (unsigned i = 0; i < count; ++i)
    spread.push_back(int(i % per));
  writeResult(ctx, ctx.ir.CreateShuffleVector(piece, spread));
  return LiftStatus::Lifted;
}

/// vpmovzx* and vpmovsx*: the low elements of the source (each read from memory only where the
/// mask enables its result element), zero- or sign-extended to fill the vector length.
template <unsigned FromBits, unsigned ToBits, bool Signed>
LiftStatus liftExtend(LiftContext &ctx, const Instr &instr) {
  unsigned count = elementCount(instr, ToBits);
  llvm::Value *source = readElements(ctx, dataOperand(instr, 1), ctx.intType(FromBits), count);
  llvm::Type *wide = llvm::FixedVectorType::get(ctx.intType(ToBits), count);
  writeResult(ctx, Signed ? ctx.ir.CreateSExt(source, wide) : ctx.ir.CreateZExt(source, wide));
  return LiftStatus::Lifted;
}

enum class Narrow { Truncate, SignedSaturate, UnsignedSaturate };

/// vpmovqb/qw/qd/db/dw/wb (truncating), vpmovs* (signed saturation) and vpmovus* (unsigned
/// saturation): each element of the source narrowed, into the low part of an xmm/ymm register
/// (the rest zeroed) or to memory, under the write mask (SDM vol. 2, VPMOVQD/VPMOVSQD).
template <unsigned FromBits, unsigned ToBits, Narrow Kind>
LiftStatus liftNarrow(LiftContext &ctx, const Instr &instr) {
  llvm::Value *source = readSource(ctx, dataOperand(instr, 1), ctx.intType(FromBits));
  auto &ir = ctx.ir;
  llvm::Type *type = source->getType();
  if (Kind == Narrow::SignedSaturate) {
    llvm::Value *low =
        llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(ToBits).sext(FromBits));
    llvm::Value *high =
        llvm::ConstantInt::get(type, llvm::APInt::getSignedMaxValue(ToBits).zext(FromBits));
    source = ir.CreateBinaryIntrinsic(llvm::Intrinsic::smin,
                                      ir.CreateBinaryIntrinsic(llvm::Intrinsic::smax, source, low),
                                      high);
  } else if (Kind == Narrow::UnsignedSaturate) {
    llvm::Value *high =
        llvm::ConstantInt::get(type, llvm::APInt::getMaxValue(ToBits).zext(FromBits));
    source = ir.CreateBinaryIntrinsic(llvm::Intrinsic::umin, source, high);
  }
  writeResult(ctx, ir.CreateTrunc(source, llvm::FixedVectorType::get(
                                              ctx.intType(ToBits), simd::elementCount(source))));
  return LiftStatus::Lifted;
}

/// vmovss, vmovsd (EVEX): from memory, element 0 (read only where the mask enables it) and the
/// rest of the xmm zero; between registers, element 0 of src2 and the rest of src1; to
/// memory, element 0 stored where the mask enables it. Under the write mask (SDM vol. 2,
/// MOVSS).
template <unsigned Bits> LiftStatus liftMoveScalar(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(Bits);
  auto *xmm = llvm::FixedVectorType::get(element, 128 / Bits);
  const Operand &destination = instr.op(0);
  if (destination.isMem()) {
    llvm::Value *value = ctx.readVectorReg(instr.op(dataOperand(instr, 1)).reg, element);
    llvm::Value *low = ctx.ir.CreateShuffleVector(value, llvm::ArrayRef<int>{0});
    llvm::Value *address = ctx.effectiveAddress(destination);
    if (instr.evex.mask == ZYDIS_REGISTER_NONE)
      ctx.store(address, low);
    else
      ctx.ir.CreateMaskedStore(low, simd::memoryPointer(ctx, address), llvm::Align(1),
                               writeMask(ctx, 1));
    return LiftStatus::Lifted;
  }
  bool fromMemory = instr.op(dataOperand(instr, 1)).isMem();
  llvm::Value *upper = fromMemory
                           ? llvm::Constant::getNullValue(xmm)
                           : ctx.readVectorReg(instr.op(dataOperand(instr, 1)).reg, element);
  llvm::Value *low = readScalarSource(ctx, dataOperand(instr, fromMemory ? 1 : 2), element);
  writeScalarResult(ctx, upper, low);
  return LiftStatus::Lifted;
}

/// The zero- and sign-extending forms of one pair of widths.
template <unsigned FromBits, unsigned ToBits>
void addExtensions(SemanticTable &table, ZydisMnemonic zero, ZydisMnemonic sign) {
  table.add(zero, liftExtend<FromBits, ToBits, false>);
  table.add(sign, liftExtend<FromBits, ToBits, true>);
}

} // namespace

void registerAvx512Move(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VMOVDQU8, liftMaskedMove<8, false>);
  table.add(ZYDIS_MNEMONIC_VMOVDQU16, liftMaskedMove<16, false>);
  table.add(ZYDIS_MNEMONIC_VMOVDQU32, liftMaskedMove<32, false>);
  table.add(ZYDIS_MNEMONIC_VMOVDQU64, liftMaskedMove<64, false>);
  table.add(ZYDIS_MNEMONIC_VMOVUPS, liftMaskedMove<32, false>);
  table.add(ZYDIS_MNEMONIC_VMOVUPD, liftMaskedMove<64, false>);
  table.add(ZYDIS_MNEMONIC_VMOVDQA32, liftMaskedMove<32, true>);
  table.add(ZYDIS_MNEMONIC_VMOVDQA64, liftMaskedMove<64, true>);
  table.add(ZYDIS_MNEMONIC_VMOVAPS, liftMaskedMove<32, true>);
  table.add(ZYDIS_MNEMONIC_VMOVAPD, liftMaskedMove<64, true>);
  // No write mask; the cache hint changes nothing a program can see.
  table.add(ZYDIS_MNEMONIC_VMOVNTDQ, liftMaskedMove<64, true>);
  table.add(ZYDIS_MNEMONIC_VMOVNTDQA, liftMaskedMove<64, true>);
  table.add(ZYDIS_MNEMONIC_VMOVNTPS, liftMaskedMove<32, true>);
  table.add(ZYDIS_MNEMONIC_VMOVNTPD, liftMaskedMove<64, true>);
  table.add(ZYDIS_MNEMONIC_VPBROADCASTB, liftBroadcast<8>);
  table.add(ZYDIS_MNEMONIC_VPBROADCASTW, liftBroadcast<16>);
  table.add(ZYDIS_MNEMONIC_VPBROADCASTD, liftBroadcast<32>);
  table.add(ZYDIS_MNEMONIC_VPBROADCASTQ, liftBroadcast<64>);
  table.add(ZYDIS_MNEMONIC_VBROADCASTSS, liftBroadcast<32>);
  table.add(ZYDIS_MNEMONIC_VBROADCASTSD, liftBroadcast<64>);
  table.add(ZYDIS_MNEMONIC_VMOVD, liftMoveElement<32>);
  table.add(ZYDIS_MNEMONIC_VMOVQ, liftMoveElement<64>);
  table.add(ZYDIS_MNEMONIC_VMOVSS, liftMoveScalar<32>);
  table.add(ZYDIS_MNEMONIC_VMOVSD, liftMoveScalar<64>);
  // The integer (i) and floating-point (f) forms of a piece move are the same bits.
  auto integerAndFloat = [&](ZydisMnemonic integer, ZydisMnemonic fp, Semantic semantic) {
    table.add(integer, semantic);
    table.add(fp, semantic);
  };
  integerAndFloat(ZYDIS_MNEMONIC_VINSERTI32X4, ZYDIS_MNEMONIC_VINSERTF32X4,
                  liftInsertPiece<32, 128>);
  integerAndFloat(ZYDIS_MNEMONIC_VINSERTI64X2, ZYDIS_MNEMONIC_VINSERTF64X2,
                  liftInsertPiece<64, 128>);
  integerAndFloat(ZYDIS_MNEMONIC_VINSERTI32X8, ZYDIS_MNEMONIC_VINSERTF32X8,
                  liftInsertPiece<32, 256>);
  integerAndFloat(ZYDIS_MNEMONIC_VINSERTI64X4, ZYDIS_MNEMONIC_VINSERTF64X4,
                  liftInsertPiece<64, 256>);
  integerAndFloat(ZYDIS_MNEMONIC_VEXTRACTI32X4, ZYDIS_MNEMONIC_VEXTRACTF32X4,
                  liftExtractPiece<32, 128>);
  integerAndFloat(ZYDIS_MNEMONIC_VEXTRACTI64X2, ZYDIS_MNEMONIC_VEXTRACTF64X2,
                  liftExtractPiece<64, 128>);
  integerAndFloat(ZYDIS_MNEMONIC_VEXTRACTI32X8, ZYDIS_MNEMONIC_VEXTRACTF32X8,
                  liftExtractPiece<32, 256>);
  integerAndFloat(ZYDIS_MNEMONIC_VEXTRACTI64X4, ZYDIS_MNEMONIC_VEXTRACTF64X4,
                  liftExtractPiece<64, 256>);
  integerAndFloat(ZYDIS_MNEMONIC_VBROADCASTI32X4, ZYDIS_MNEMONIC_VBROADCASTF32X4,
                  liftBroadcastPiece<32, 128>);
  integerAndFloat(ZYDIS_MNEMONIC_VBROADCASTI64X2, ZYDIS_MNEMONIC_VBROADCASTF64X2,
                  liftBroadcastPiece<64, 128>);
  integerAndFloat(ZYDIS_MNEMONIC_VBROADCASTI32X8, ZYDIS_MNEMONIC_VBROADCASTF32X8,
                  liftBroadcastPiece<32, 256>);
  integerAndFloat(ZYDIS_MNEMONIC_VBROADCASTI64X4, ZYDIS_MNEMONIC_VBROADCASTF64X4,
                  liftBroadcastPiece<64, 256>);
  using N = Narrow;
  table.add(ZYDIS_MNEMONIC_VPMOVQB, liftNarrow<64, 8, N::Truncate>);
  table.add(ZYDIS_MNEMONIC_VPMOVQW, liftNarrow<64, 16, N::Truncate>);
  table.add(ZYDIS_MNEMONIC_VPMOVQD, liftNarrow<64, 32, N::Truncate>);
  table.add(ZYDIS_MNEMONIC_VPMOVDB, liftNarrow<32, 8, N::Truncate>);
  table.add(ZYDIS_MNEMONIC_VPMOVDW, liftNarrow<32, 16, N::Truncate>);
  table.add(ZYDIS_MNEMONIC_VPMOVWB, liftNarrow<16, 8, N::Truncate>);
  table.add(ZYDIS_MNEMONIC_VPMOVSQB, liftNarrow<64, 8, N::SignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVSQW, liftNarrow<64, 16, N::SignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVSQD, liftNarrow<64, 32, N::SignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVSDB, liftNarrow<32, 8, N::SignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVSDW, liftNarrow<32, 16, N::SignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVSWB, liftNarrow<16, 8, N::SignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVUSQB, liftNarrow<64, 8, N::UnsignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVUSQW, liftNarrow<64, 16, N::UnsignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVUSQD, liftNarrow<64, 32, N::UnsignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVUSDB, liftNarrow<32, 8, N::UnsignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVUSDW, liftNarrow<32, 16, N::UnsignedSaturate>);
  table.add(ZYDIS_MNEMONIC_VPMOVUSWB, liftNarrow<16, 8, N::UnsignedSaturate>);
  addExtensions<8, 16>(table, ZYDIS_MNEMONIC_VPMOVZXBW, ZYDIS_MNEMONIC_VPMOVSXBW);
  addExtensions<8, 32>(table, ZYDIS_MNEMONIC_VPMOVZXBD, ZYDIS_MNEMONIC_VPMOVSXBD);
  addExtensions<8, 64>(table, ZYDIS_MNEMONIC_VPMOVZXBQ, ZYDIS_MNEMONIC_VPMOVSXBQ);
  addExtensions<16, 32>(table, ZYDIS_MNEMONIC_VPMOVZXWD, ZYDIS_MNEMONIC_VPMOVSXWD);
  addExtensions<16, 64>(table, ZYDIS_MNEMONIC_VPMOVZXWQ, ZYDIS_MNEMONIC_VPMOVSXWQ);
  addExtensions<32, 64>(table, ZYDIS_MNEMONIC_VPMOVZXDQ, ZYDIS_MNEMONIC_VPMOVSXDQ);
}

} // namespace hoist
