// SIMD data movement (Zydis category DATAXFER of SSE and AVX, and the moves filed under SSE,
// AVX and BROADCAST): whole-register, scalar and half moves, GPR transfers, sign masks,
// element inserts and extracts, broadcasts, 128-bit lane moves and masked moves.
#include "Semantics/Semantics.h"
#include "Semantics/SimdHelpers.h"

#include "Arch/Registers.h"

namespace hoist {
namespace {

using simd::immediate;

llvm::Value *readRegister(LiftContext &ctx, unsigned index, llvm::Type *element) {
  return ctx.readVectorReg(ctx.instr().op(index).reg, element);
}

/// movaps, movups, movdqa, movdqu, the non-temporal moves, lddqu and their VEX forms: a whole
/// register or memory operand. Alignment faults of the aligned forms come from
/// readVector/writeVector.
LiftStatus liftVectorMove(LiftContext &ctx, const Instr &instr) {
  ctx.writeVector(0, ctx.readVector(1, ctx.ir.getInt64Ty()));
  return LiftStatus::Lifted;
}

/// movd, movq, vmovd, vmovq: between an xmm and a GPR or memory, or xmm to xmm (movq). A
/// write to an xmm zero-extends into it (SDM vol. 2, MOVD/MOVQ), which writeOperand does.
LiftStatus liftMovdMovq(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  const Operand &destination = instr.op(0);
  bool toVector = destination.isReg() && LiftContext::isVectorRegister(destination.reg);
  unsigned bits = toVector ? instr.op(1).bits : destination.bits;
  ctx.writeOperand(0, ctx.readOperand(1, bits));
  return LiftStatus::Lifted;
}

/// movss, movsd (SSE) and vmovss, vmovsd. A load zeroes the rest of the xmm, a store writes
/// the low element; register to register replaces only the low element of the destination
/// (legacy) or of the first source (VEX three-operand form).
template <unsigned Bits> LiftStatus liftScalarMove(LiftContext &ctx, const Instr &instr) {
  if (instr.op(0).isMem() || instr.op(1).isMem()) {
    ctx.writeOperand(0, ctx.readOperand(1, Bits));
    return LiftStatus::Lifted;
  }
  llvm::Type *element = ctx.intType(Bits);
  llvm::Value *base = readRegister(ctx, instr.explicitCount == 3 ? 1 : 0, element);
  llvm::Value *low = ctx.readScalar(instr.explicitCount - 1, element);
  ctx.writeVectorReg(instr.op(0).reg, ctx.ir.CreateInsertElement(base, low, uint64_t(0)));
  return LiftStatus::Lifted;
}

/// movhps, movhpd (High) and movlps, movlpd: one quadword between memory and a half of an
/// xmm; the VEX load takes the other half from the first source.
template <bool High> LiftStatus liftHalfMove(LiftContext &ctx, const Instr &instr) {
  llvm::Type *i64 = ctx.ir.getInt64Ty();
  if (instr.op(0).isMem()) {
    llvm::Value *source = readRegister(ctx, 1, i64);
    ctx.writeOperand(0, ctx.ir.CreateExtractElement(source, uint64_t(High)));
    return LiftStatus::Lifted;
  }
  llvm::Value *base = readRegister(ctx, instr.explicitCount - 2, i64);
  llvm::Value *half = ctx.readOperand(instr.explicitCount - 1, 64);
  ctx.writeVectorReg(instr.op(0).reg, ctx.ir.CreateInsertElement(base, half, uint64_t(High)));
  return LiftStatus::Lifted;
}

/// movhlps (HighToLow: the source's high quadword into the low one) and movlhps (the
/// source's low quadword into the high one); the other half comes from the destination, or
/// from the first source in the VEX form.
template <bool HighToLow> LiftStatus liftHalfShuffle(LiftContext &ctx, const Instr &instr) {
  llvm::Type *i64 = ctx.ir.getInt64Ty();
  llvm::Value *base = readRegister(ctx, instr.explicitCount - 2, i64);
  llvm::Value *source = readRegister(ctx, instr.explicitCount - 1, i64);
  llvm::Value *result = HighToLow ? ctx.ir.CreateShuffleVector(base, source, {3, 1})
                                  : ctx.ir.CreateShuffleVector(base, source, {0, 2});
  ctx.writeVectorReg(instr.op(0).reg, result);
  return LiftStatus::Lifted;
}

/// movmskps, movmskpd, pmovmskb and VEX forms: the sign bits of the elements into a GPR,
/// zero-extended.
template <unsigned ElementBits> LiftStatus liftSignMask(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  llvm::Value *source = readRegister(ctx, 1, ctx.intType(ElementBits));
  llvm::Value *signs = simd::signBits(ctx, source);
  llvm::Value *mask = ctx.ir.CreateBitCast(signs, ctx.intType(simd::elementCount(signs)));
  ctx.writeOperand(0, ctx.ir.CreateZExt(mask, ctx.intType(instr.op(0).bits)));
  return LiftStatus::Lifted;
}

enum class Duplicate { LowQuadwords, OddDoublewords, EvenDoublewords };

/// movddup (each even quadword twice), movshdup (odd doublewords), movsldup (even
/// doublewords). movddup xmm reads only 64 bits of memory.
template <Duplicate Kind> LiftStatus liftDuplicate(LiftContext &ctx, const Instr &instr) {
  unsigned elementBits = Kind == Duplicate::LowQuadwords ? 64 : 32;
  llvm::Value *source = ctx.readVector(1, ctx.intType(elementBits));
  unsigned count = LiftContext::vectorRegisterBits(instr.op(0).reg) / elementBits;
  llvm::SmallVector<int, 8> mask;
  for (unsigned i = 0; i < count; ++i)
    mask.push_back(Kind == Duplicate::OddDoublewords ? int(i | 1) : int(i & ~1u));
  ctx.writeVectorReg(instr.op(0).reg, ctx.ir.CreateShuffleVector(source, mask));
  return LiftStatus::Lifted;
}

/// pinsrb/w/d/q and VEX forms: a GPR or memory element into the element the immediate selects
/// (modulo the element count).
template <unsigned ElementBits> LiftStatus liftInsertElement(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  unsigned last = instr.explicitCount - 1;
  llvm::Value *base = readRegister(ctx, last - 2, ctx.intType(ElementBits));
  llvm::Value *element = ctx.readOperand(last - 1, ElementBits);
  unsigned index = immediate(instr, last) % (128 / ElementBits);
  ctx.writeVectorReg(instr.op(0).reg, ctx.ir.CreateInsertElement(base, element, index));
  return LiftStatus::Lifted;
}

/// pextrb/w/d/q, extractps and VEX forms: the element the immediate selects into memory or a
/// GPR, zero-extended.
template <unsigned ElementBits>
LiftStatus liftExtractElement(LiftContext &ctx, const Instr &instr) {
  if (simd::usesMmx(instr))
    return ctx.unsupported();
  llvm::Value *source = readRegister(ctx, 1, ctx.intType(ElementBits));
  unsigned index = immediate(instr, 2) % (128 / ElementBits);
  llvm::Value *element = ctx.ir.CreateExtractElement(source, index);
  if (instr.op(0).isReg())
    element = ctx.ir.CreateZExt(element, ctx.intType(instr.op(0).bits));
  ctx.writeOperand(0, element);
  return LiftStatus::Lifted;
}

/// insertps: the source doubleword (register element imm[7:6], or memory) into element
/// imm[5:4], then the elements of imm[3:0] zeroed (SDM vol. 2, INSERTPS).
LiftStatus liftInsertps(LiftContext &ctx, const Instr &instr) {
  llvm::Type *i32 = ctx.ir.getInt32Ty();
  unsigned last = instr.explicitCount - 1;
  unsigned imm = immediate(instr, last);
  llvm::Value *base = readRegister(ctx, last - 2, i32);
  llvm::Value *element =
      instr.op(last - 1).isMem()
          ? ctx.readOperand(last - 1, 32)
          : ctx.ir.CreateExtractElement(readRegister(ctx, last - 1, i32), uint64_t(imm >> 6));
  llvm::Value *inserted = ctx.ir.CreateInsertElement(base, element, uint64_t((imm >> 4) & 3));
  int mask[4];
  for (int i = 0; i < 4; ++i)
    mask[i] = imm & (1u << i) ? 4 : i;
  llvm::Value *result =
      ctx.ir.CreateShuffleVector(inserted, llvm::Constant::getNullValue(inserted->getType()), mask);
  ctx.writeVectorReg(instr.op(0).reg, result);
  return LiftStatus::Lifted;
}

/// vbroadcastss/sd/f128/i128 and vpbroadcastb/w/d/q: the low `SourceBits` of a register or
/// memory repeated over the destination.
template <unsigned ElementBits, unsigned SourceBits>
LiftStatus liftBroadcast(LiftContext &ctx, const Instr &instr) {
  llvm::Value *source = simd::readVectorBits(ctx, 1, ctx.intType(ElementBits), SourceBits);
  unsigned count = LiftContext::vectorRegisterBits(instr.op(0).reg) / ElementBits;
  llvm::SmallVector<int, 32> mask;
  for (unsigned i = 0; i < count; ++i)
    mask.push_back(int(i % (SourceBits / ElementBits)));
  ctx.writeVectorReg(instr.op(0).reg, ctx.ir.CreateShuffleVector(source, mask));
  return LiftStatus::Lifted;
}

/// vinsertf128, vinserti128: the first source with the 128-bit lane imm[0] replaced.
LiftStatus liftInsertLane(LiftContext &ctx, const Instr &instr) {
  llvm::Type *i64 = ctx.ir.getInt64Ty();
  llvm::Value *base = readRegister(ctx, 1, i64);
  llvm::Value *lane = simd::resize(ctx, simd::readVectorBits(ctx, 2, i64, 128), 4);
  llvm::Value *result = immediate(instr, 3) & 1
                            ? ctx.ir.CreateShuffleVector(base, lane, {0, 1, 4, 5})
                            : ctx.ir.CreateShuffleVector(base, lane, {4, 5, 2, 3});
  ctx.writeVectorReg(instr.op(0).reg, result);
  return LiftStatus::Lifted;
}

/// vextractf128, vextracti128: the 128-bit lane imm[0] of a ymm into an xmm or memory.
LiftStatus liftExtractLane(LiftContext &ctx, const Instr &instr) {
  llvm::Value *source = readRegister(ctx, 1, ctx.ir.getInt64Ty());
  int lane = int(immediate(instr, 2) & 1);
  ctx.writeVector(0, ctx.ir.CreateShuffleVector(source, {2 * lane, 2 * lane + 1}));
  return LiftStatus::Lifted;
}

/// vzeroupper (bits 128..511 of zmm0-15 cleared) and vzeroall (zmm0-15 cleared); zmm16-31
/// keep their value (SDM vol. 2, VZEROUPPER: "ZMM16-31 are unmodified").
template <bool All> LiftStatus liftZeroUpper(LiftContext &ctx, const Instr &) {
  for (unsigned i = 0; i < 16; ++i) {
    llvm::Value *value = ctx.readVar(ymmVar(i));
    llvm::Value *zero = llvm::Constant::getNullValue(value->getType());
    ctx.writeVar(ymmVar(i), All ? zero : ctx.ir.CreateShuffleVector(value, zero, {0, 1, 4, 5}));
    ctx.writeVar(zmmHighVar(i), zero);
  }
  return LiftStatus::Lifted;
}

/// vmaskmovps/pd, vpmaskmovd/q: elements whose mask element has its sign bit set are loaded
/// (others are zero) or stored (others untouched). Masked-off elements are never accessed and
/// cannot fault (SDM vol. 2, VMASKMOV), as with llvm.masked.load/store.
template <unsigned ElementBits> LiftStatus liftMaskedMove(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *mask = simd::signBits(ctx, readRegister(ctx, 1, element));
  if (instr.op(0).isMem()) {
    llvm::Value *data = readRegister(ctx, 2, element);
    llvm::Value *pointer = simd::memoryPointer(ctx, ctx.effectiveAddress(instr.op(0)));
    ctx.ir.CreateMaskedStore(data, pointer, llvm::Align(1), mask);
    return LiftStatus::Lifted;
  }
  auto *type = llvm::cast<llvm::FixedVectorType>(mask->getType());
  llvm::Type *dataType = llvm::FixedVectorType::get(element, type->getNumElements());
  llvm::Value *pointer = simd::memoryPointer(ctx, ctx.effectiveAddress(instr.op(2)));
  llvm::Value *loaded = ctx.ir.CreateMaskedLoad(dataType, pointer, llvm::Align(1), mask,
                                                llvm::Constant::getNullValue(dataType));
  ctx.writeVectorReg(instr.op(0).reg, loaded);
  return LiftStatus::Lifted;
}

/// maskmovdqu, vmaskmovdqu: the bytes of the first operand whose mask byte (second operand)
/// has its sign bit set are stored to [rdi] (the implicit third operand).
LiftStatus liftMaskedByteStore(LiftContext &ctx, const Instr &instr) {
  llvm::Type *i8 = ctx.ir.getInt8Ty();
  llvm::Value *data = readRegister(ctx, 0, i8);
  llvm::Value *mask = simd::signBits(ctx, readRegister(ctx, 1, i8));
  llvm::Value *pointer = simd::memoryPointer(ctx, ctx.effectiveAddress(instr.op(2)));
  ctx.ir.CreateMaskedStore(data, pointer, llvm::Align(1), mask);
  return LiftStatus::Lifted;
}

} // namespace

void registerSimdGather(SemanticTable &table);   // SimdGather.cpp

void registerSimdMove(SemanticTable &table) {
  for (ZydisMnemonic mnemonic :
       {ZYDIS_MNEMONIC_MOVAPS,   ZYDIS_MNEMONIC_MOVUPS,   ZYDIS_MNEMONIC_MOVAPD,
        ZYDIS_MNEMONIC_MOVUPD,   ZYDIS_MNEMONIC_MOVDQA,   ZYDIS_MNEMONIC_MOVDQU,
        ZYDIS_MNEMONIC_VMOVAPS,  ZYDIS_MNEMONIC_VMOVUPS,  ZYDIS_MNEMONIC_VMOVAPD,
        ZYDIS_MNEMONIC_VMOVUPD,  ZYDIS_MNEMONIC_VMOVDQA,  ZYDIS_MNEMONIC_VMOVDQU,
        ZYDIS_MNEMONIC_MOVNTDQ,  ZYDIS_MNEMONIC_MOVNTPS,  ZYDIS_MNEMONIC_MOVNTPD,
        ZYDIS_MNEMONIC_MOVNTDQA, ZYDIS_MNEMONIC_LDDQU,    ZYDIS_MNEMONIC_VMOVNTDQ,
        ZYDIS_MNEMONIC_VMOVNTPS, ZYDIS_MNEMONIC_VMOVNTPD, ZYDIS_MNEMONIC_VMOVNTDQA,
        ZYDIS_MNEMONIC_VLDDQU})
    table.add(mnemonic, liftVectorMove);
  for (ZydisMnemonic mnemonic :
       {ZYDIS_MNEMONIC_MOVD, ZYDIS_MNEMONIC_MOVQ, ZYDIS_MNEMONIC_VMOVD, ZYDIS_MNEMONIC_VMOVQ})
    table.add(mnemonic, liftMovdMovq);
  table.add(ZYDIS_MNEMONIC_MOVSS, liftScalarMove<32>);
  table.add(ZYDIS_MNEMONIC_VMOVSS, liftScalarMove<32>);
  // The string movsd is STRINGOP (String.cpp); the SSE one is DATAXFER.
  table.add(ZYDIS_MNEMONIC_MOVSD, liftScalarMove<64>, ZYDIS_CATEGORY_DATAXFER);
  table.add(ZYDIS_MNEMONIC_VMOVSD, liftScalarMove<64>);
  for (ZydisMnemonic mnemonic : {ZYDIS_MNEMONIC_MOVHPS, ZYDIS_MNEMONIC_MOVHPD,
                                 ZYDIS_MNEMONIC_VMOVHPS, ZYDIS_MNEMONIC_VMOVHPD})
    table.add(mnemonic, liftHalfMove<true>);
  for (ZydisMnemonic mnemonic : {ZYDIS_MNEMONIC_MOVLPS, ZYDIS_MNEMONIC_MOVLPD,
                                 ZYDIS_MNEMONIC_VMOVLPS, ZYDIS_MNEMONIC_VMOVLPD})
    table.add(mnemonic, liftHalfMove<false>);
  table.add(ZYDIS_MNEMONIC_MOVHLPS, liftHalfShuffle<true>);
  table.add(ZYDIS_MNEMONIC_VMOVHLPS, liftHalfShuffle<true>);
  table.add(ZYDIS_MNEMONIC_MOVLHPS, liftHalfShuffle<false>);
  table.add(ZYDIS_MNEMONIC_VMOVLHPS, liftHalfShuffle<false>);
  table.add(ZYDIS_MNEMONIC_MOVMSKPS, liftSignMask<32>);
  table.add(ZYDIS_MNEMONIC_VMOVMSKPS, liftSignMask<32>);
  table.add(ZYDIS_MNEMONIC_MOVMSKPD, liftSignMask<64>);
  table.add(ZYDIS_MNEMONIC_VMOVMSKPD, liftSignMask<64>);
  table.add(ZYDIS_MNEMONIC_PMOVMSKB, liftSignMask<8>);
  table.add(ZYDIS_MNEMONIC_VPMOVMSKB, liftSignMask<8>);
  table.add(ZYDIS_MNEMONIC_MOVDDUP, liftDuplicate<Duplicate::LowQuadwords>);
  table.add(ZYDIS_MNEMONIC_VMOVDDUP, liftDuplicate<Duplicate::LowQuadwords>);
  table.add(ZYDIS_MNEMONIC_MOVSHDUP, liftDuplicate<Duplicate::OddDoublewords>);
  table.add(ZYDIS_MNEMONIC_VMOVSHDUP, liftDuplicate<Duplicate::OddDoublewords>);
  table.add(ZYDIS_MNEMONIC_MOVSLDUP, liftDuplicate<Duplicate::EvenDoublewords>);
  table.add(ZYDIS_MNEMONIC_VMOVSLDUP, liftDuplicate<Duplicate::EvenDoublewords>);
  table.add(ZYDIS_MNEMONIC_PINSRB, liftInsertElement<8>);
  table.add(ZYDIS_MNEMONIC_VPINSRB, liftInsertElement<8>);
  table.add(ZYDIS_MNEMONIC_PINSRW, liftInsertElement<16>);
  table.add(ZYDIS_MNEMONIC_VPINSRW, liftInsertElement<16>);
  table.add(ZYDIS_MNEMONIC_PINSRD, liftInsertElement<32>);
  table.add(ZYDIS_MNEMONIC_VPINSRD, liftInsertElement<32>);
  table.add(ZYDIS_MNEMONIC_PINSRQ, liftInsertElement<64>);
  table.add(ZYDIS_MNEMONIC_VPINSRQ, liftInsertElement<64>);
  table.add(ZYDIS_MNEMONIC_PEXTRB, liftExtractElement<8>);
  table.add(ZYDIS_MNEMONIC_VPEXTRB, liftExtractElement<8>);
  table.add(ZYDIS_MNEMONIC_PEXTRW, liftExtractElement<16>);
  table.add(ZYDIS_MNEMONIC_VPEXTRW, liftExtractElement<16>);
  table.add(ZYDIS_MNEMONIC_PEXTRD, liftExtractElement<32>);
  table.add(ZYDIS_MNEMONIC_VPEXTRD, liftExtractElement<32>);
  table.add(ZYDIS_MNEMONIC_EXTRACTPS, liftExtractElement<32>);
  table.add(ZYDIS_MNEMONIC_VEXTRACTPS, liftExtractElement<32>);
  table.add(ZYDIS_MNEMONIC_PEXTRQ, liftExtractElement<64>);
  table.add(ZYDIS_MNEMONIC_VPEXTRQ, liftExtractElement<64>);
  table.add(ZYDIS_MNEMONIC_INSERTPS, liftInsertps);
  table.add(ZYDIS_MNEMONIC_VINSERTPS, liftInsertps);
  table.add(ZYDIS_MNEMONIC_VBROADCASTSS, liftBroadcast<32, 32>);
  table.add(ZYDIS_MNEMONIC_VBROADCASTSD, liftBroadcast<64, 64>);
  table.add(ZYDIS_MNEMONIC_VBROADCASTF128, liftBroadcast<64, 128>);
  table.add(ZYDIS_MNEMONIC_VBROADCASTI128, liftBroadcast<64, 128>);
  table.add(ZYDIS_MNEMONIC_VPBROADCASTB, liftBroadcast<8, 8>);
  table.add(ZYDIS_MNEMONIC_VPBROADCASTW, liftBroadcast<16, 16>);
  table.add(ZYDIS_MNEMONIC_VPBROADCASTD, liftBroadcast<32, 32>);
  table.add(ZYDIS_MNEMONIC_VPBROADCASTQ, liftBroadcast<64, 64>);
  table.add(ZYDIS_MNEMONIC_VINSERTF128, liftInsertLane);
  table.add(ZYDIS_MNEMONIC_VINSERTI128, liftInsertLane);
  table.add(ZYDIS_MNEMONIC_VEXTRACTF128, liftExtractLane);
  table.add(ZYDIS_MNEMONIC_VEXTRACTI128, liftExtractLane);
  table.add(ZYDIS_MNEMONIC_VZEROUPPER, liftZeroUpper<false>);
  table.add(ZYDIS_MNEMONIC_VZEROALL, liftZeroUpper<true>);
  table.add(ZYDIS_MNEMONIC_VMASKMOVPS, liftMaskedMove<32>);
  table.add(ZYDIS_MNEMONIC_VPMASKMOVD, liftMaskedMove<32>);
  table.add(ZYDIS_MNEMONIC_VMASKMOVPD, liftMaskedMove<64>);
  table.add(ZYDIS_MNEMONIC_VPMASKMOVQ, liftMaskedMove<64>);
  table.add(ZYDIS_MNEMONIC_MASKMOVDQU, liftMaskedByteStore);
  table.add(ZYDIS_MNEMONIC_VMASKMOVDQU, liftMaskedByteStore);
  registerSimdGather(table);
}

/// The EVEX forms that have no write mask and compute what their VEX forms do, xmm16-31
/// included: the half moves, element inserts and extracts, and insertps.
void registerAvx512SimdMove(SemanticTable &table) {
  struct Entry {
    ZydisMnemonic mnemonic;
    Semantic semantic;
  };
  const Entry entries[] = {
      {ZYDIS_MNEMONIC_VMOVHPS, liftHalfMove<true>},
      {ZYDIS_MNEMONIC_VMOVHPD, liftHalfMove<true>},
      {ZYDIS_MNEMONIC_VMOVLPS, liftHalfMove<false>},
      {ZYDIS_MNEMONIC_VMOVLPD, liftHalfMove<false>},
      {ZYDIS_MNEMONIC_VMOVHLPS, liftHalfShuffle<true>},
      {ZYDIS_MNEMONIC_VMOVLHPS, liftHalfShuffle<false>},
      {ZYDIS_MNEMONIC_VPINSRB, liftInsertElement<8>},
      {ZYDIS_MNEMONIC_VPINSRW, liftInsertElement<16>},
      {ZYDIS_MNEMONIC_VPINSRD, liftInsertElement<32>},
      {ZYDIS_MNEMONIC_VPINSRQ, liftInsertElement<64>},
      {ZYDIS_MNEMONIC_VPEXTRB, liftExtractElement<8>},
      {ZYDIS_MNEMONIC_VPEXTRW, liftExtractElement<16>},
      {ZYDIS_MNEMONIC_VPEXTRD, liftExtractElement<32>},
      {ZYDIS_MNEMONIC_VPEXTRQ, liftExtractElement<64>},
      {ZYDIS_MNEMONIC_VEXTRACTPS, liftExtractElement<32>},
      {ZYDIS_MNEMONIC_VINSERTPS, liftInsertps},
  };
  for (const Entry &entry : entries)
    table.add(entry.mnemonic, entry.semantic);
}

} // namespace hoist
