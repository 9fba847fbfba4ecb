// AVX-512 data movement (EVEX forms of Zydis categories DATAXFER and BROADCAST): the whole-
// vector moves with their element sizes for masking (vmovdqu8/16/32/64, vmovdqa32/64,
// vmovups/aps/upd/apd), the non-temporal moves, the broadcasts from an xmm register, memory
// or a general-purpose register, and vmovd/vmovq. Masking, zeroing and fault suppression come from
// Avx512Operands.
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
}

} // namespace hoist
