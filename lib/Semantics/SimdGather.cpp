// Gathers and scatters with a VSIB memory operand [base + vindex*scale + disp]: the AVX2
// gathers vpgatherdd/dq/qd/qq and vgatherdps/dpd/qps/qpd (xmm and ymm, the mask a vector
// register), and their AVX-512 forms with the scatters vpscatter* and vscatter* (xmm, ymm and
// zmm, the mask an opmask register). One element loop serves both encodings.
#include "Semantics/Avx512Operands.h"
#include "Semantics/Semantics.h"
#include "Semantics/SimdHelpers.h"

#include <initializer_list>

namespace hoist {
namespace {

/// The addresses of the `count` elements of VSIB operand `operand`: base + disp (with the FS/GS
/// base) plus each sign-extended index element times the scale (SDM vol. 2, 2.3.12).
llvm::Value *elementAddresses(LiftContext &ctx, const Operand &operand, unsigned indexBits,
                              unsigned count) {
  Operand scalar = operand;   // effectiveAddress handles GPRs only: leave the index out
  scalar.index = ZYDIS_REGISTER_NONE;
  llvm::Value *common = ctx.effectiveAddress(scalar);
  llvm::Value *indices = ctx.readVectorReg(operand.index, ctx.intType(indexBits));
  indices = simd::resize(ctx, indices, count);
  auto *type = llvm::FixedVectorType::get(ctx.ir.getInt64Ty(), count);
  llvm::Value *offsets = ctx.ir.CreateSExt(indices, type);
  if (operand.scale > 1)
    offsets = ctx.ir.CreateMul(offsets, llvm::ConstantInt::get(type, operand.scale));
  return ctx.ir.CreateAdd(ctx.ir.CreateVectorSplat(count, common), offsets);
}

/// The number of elements a gather or scatter moves: one per index element, as far as the data
/// register `data` has elements of `elementBits` (vpgatherqd ymm, [zmm]: 8; vpgatherdq xmm,
/// [xmm]: 2).
unsigned movedElements(ZydisRegister data, ZydisRegister index, unsigned elementBits,
                       unsigned indexBits) {
  return std::min(LiftContext::vectorRegisterBits(data) / elementBits,
                  LiftContext::vectorRegisterBits(index) / indexBits);
}

/// Whether the gather or scatter can be lifted: 64-bit addresses (32-bit ones would need the
/// sum truncated per element, which no compiler emits) and no two of `registers` the same
/// register (a gather's destination, index and AVX2 mask: #UD; a scatter's source and index
/// are left to the runtime too).
bool liftable(const Instr &instr, const Operand &memory,
              std::initializer_list<ZydisRegister> registers) {
  if (!memory.isMem() || !LiftContext::isVectorRegister(memory.index) || instr.addressWidth != 64)
    return false;
  for (auto a = registers.begin(); a != registers.end(); ++a)
    for (auto b = a + 1; b != registers.end(); ++b)
      if (ZydisRegisterGetId(*a) == ZydisRegisterGetId(*b))
        return false;
  return true;
}

/// The gather's element loop: element i (i < `count`) of `old` replaced by the element at
/// address i where `enabled` (`<count x i1>`) has it set. The elements are loaded one by one in
/// order and masked-off ones are never accessed, as on the CPU. On a fault the CPU keeps the
/// elements before it done and their mask bits cleared; the semantics write the destination
/// and the mask once, after the last element, so a fault midway leaves both as they were.
llvm::Value *gatherElements(LiftContext &ctx, llvm::Value *old, llvm::Value *enabled,
                            llvm::Value *addresses, unsigned count) {
  llvm::Type *element = llvm::cast<llvm::FixedVectorType>(old->getType())->getElementType();
  auto *single = llvm::FixedVectorType::get(element, 1);
  llvm::Value *result = simd::resize(ctx, old, count);
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *address = ctx.ir.CreateExtractElement(addresses, uint64_t(i));
    llvm::Value *on = ctx.ir.CreateVectorSplat(1, ctx.ir.CreateExtractElement(enabled, i));
    llvm::Value *previous = ctx.ir.CreateVectorSplat(1, ctx.ir.CreateExtractElement(old, i));
    llvm::Value *loaded = ctx.ir.CreateMaskedLoad(single, simd::memoryPointer(ctx, address),
                                                  llvm::Align(1), on, previous);
    result = ctx.ir.CreateInsertElement(result, ctx.ir.CreateExtractElement(loaded, uint64_t(0)),
                                        i);
  }
  return result;
}

/// vpgather*, vgather* (VEX): element i (i < the number of indices and of destination elements)
/// is loaded from its VSIB address when the sign bit of mask element i is set and kept from the
/// destination otherwise; then the mask register is zero, and destination and mask elements
/// beyond the gathered ones are zero (vpgatherqd xmm: bits 64..255). SDM vol. 2, VPGATHERDD.
template <unsigned ElementBits, unsigned IndexBits>
LiftStatus liftGather(LiftContext &ctx, const Instr &instr) {
  const Operand &destination = instr.op(0), &memory = instr.op(1), &maskOperand = instr.op(2);
  if (!destination.isReg() || !maskOperand.isReg() ||
      !liftable(instr, memory, {destination.reg, memory.index, maskOperand.reg}))
    return ctx.unsupported();

  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *old = ctx.readVectorReg(destination.reg, element);
  unsigned count = movedElements(destination.reg, memory.index, ElementBits, IndexBits);
  llvm::Value *mask = simd::signBits(ctx, ctx.readVectorReg(maskOperand.reg, element));
  llvm::Value *enabled = simd::resize(ctx, mask, count);
  llvm::Value *addresses = elementAddresses(ctx, memory, IndexBits, count);
  llvm::Value *result = gatherElements(ctx, old, enabled, addresses, count);
  ctx.writeVectorReg(destination.reg, simd::resize(ctx, result, simd::elementCount(old)));
  ctx.writeVectorReg(maskOperand.reg, llvm::Constant::getNullValue(old->getType()));
  return LiftStatus::Lifted;
}

/// The scatter's element loop: element i of `data` (i < `count`) stored at address i where
/// `enabled` has it set, one by one from the lowest element; masked-off elements are never
/// accessed.
void scatterElements(LiftContext &ctx, llvm::Value *data, llvm::Value *enabled,
                     llvm::Value *addresses, unsigned count) {
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *address = ctx.ir.CreateExtractElement(addresses, uint64_t(i));
    llvm::Value *on = ctx.ir.CreateVectorSplat(1, ctx.ir.CreateExtractElement(enabled, i));
    llvm::Value *value = ctx.ir.CreateVectorSplat(1, ctx.ir.CreateExtractElement(data, i));
    ctx.ir.CreateMaskedStore(value, simd::memoryPointer(ctx, address), llvm::Align(1), on);
  }
}

/// The EVEX forms, under the opmask register (k0 and {z} are #UD), which is zero afterwards
/// (k1[MAX_KL-1:0]).
/// vpgather*, vgather*: as the VEX forms, merging; the destination's bits above the gathered
/// elements are zero. SDM vol. 2, VPGATHERDD/VPGATHERDQ (EVEX).
/// vpscatter*, vscatter*: element i of the source (i < the number of indices and of source
/// elements) is stored at its VSIB address when bit i of the opmask register is set, so that
/// of two overlapping elements the higher one's bytes are what memory holds afterwards
/// ("ordered with respect to each other (from LSB to MSB of the source registers)"). SDM
/// vol. 2, VPSCATTERDD/VPSCATTERDQ/VPSCATTERQD/VPSCATTERQQ.
template <unsigned ElementBits, unsigned IndexBits, bool Scatter>
LiftStatus liftAvx512GatherScatter(LiftContext &ctx, const Instr &instr) {
  const Operand &vector = instr.op(avx512::dataOperand(instr, Scatter ? 1 : 0));
  const Operand &memory = instr.op(avx512::dataOperand(instr, Scatter ? 0 : 1));
  if (!vector.isReg() || instr.evex.mask == ZYDIS_REGISTER_NONE || instr.evex.zeroing ||
      !liftable(instr, memory, {vector.reg, memory.index}))
    return ctx.unsupported();

  llvm::Value *data = ctx.readVectorReg(vector.reg, ctx.intType(ElementBits));
  unsigned count = movedElements(vector.reg, memory.index, ElementBits, IndexBits);
  llvm::Value *enabled = avx512::writeMask(ctx, count);
  llvm::Value *addresses = elementAddresses(ctx, memory, IndexBits, count);
  if (Scatter) {
    scatterElements(ctx, data, enabled, addresses, count);
  } else {
    llvm::Value *result = gatherElements(ctx, data, enabled, addresses, count);
    ctx.writeVectorReg(vector.reg, simd::resize(ctx, result, simd::elementCount(data)));
  }
  avx512::writeMaskRegister(ctx, instr.evex.mask, ctx.ir.getInt64(0));
  return LiftStatus::Lifted;
}

} // namespace

void registerSimdGather(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VPGATHERDD, liftGather<32, 32>);
  table.add(ZYDIS_MNEMONIC_VPGATHERDQ, liftGather<64, 32>);
  table.add(ZYDIS_MNEMONIC_VPGATHERQD, liftGather<32, 64>);
  table.add(ZYDIS_MNEMONIC_VPGATHERQQ, liftGather<64, 64>);
  table.add(ZYDIS_MNEMONIC_VGATHERDPS, liftGather<32, 32>);
  table.add(ZYDIS_MNEMONIC_VGATHERDPD, liftGather<64, 32>);
  table.add(ZYDIS_MNEMONIC_VGATHERQPS, liftGather<32, 64>);
  table.add(ZYDIS_MNEMONIC_VGATHERQPD, liftGather<64, 64>);
}

void registerAvx512Gather(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VPGATHERDD, liftAvx512GatherScatter<32, 32, false>);
  table.add(ZYDIS_MNEMONIC_VPGATHERDQ, liftAvx512GatherScatter<64, 32, false>);
  table.add(ZYDIS_MNEMONIC_VPGATHERQD, liftAvx512GatherScatter<32, 64, false>);
  table.add(ZYDIS_MNEMONIC_VPGATHERQQ, liftAvx512GatherScatter<64, 64, false>);
  table.add(ZYDIS_MNEMONIC_VGATHERDPS, liftAvx512GatherScatter<32, 32, false>);
  table.add(ZYDIS_MNEMONIC_VGATHERDPD, liftAvx512GatherScatter<64, 32, false>);
  table.add(ZYDIS_MNEMONIC_VGATHERQPS, liftAvx512GatherScatter<32, 64, false>);
  table.add(ZYDIS_MNEMONIC_VGATHERQPD, liftAvx512GatherScatter<64, 64, false>);
  table.add(ZYDIS_MNEMONIC_VPSCATTERDD, liftAvx512GatherScatter<32, 32, true>);
  table.add(ZYDIS_MNEMONIC_VPSCATTERDQ, liftAvx512GatherScatter<64, 32, true>);
  table.add(ZYDIS_MNEMONIC_VPSCATTERQD, liftAvx512GatherScatter<32, 64, true>);
  table.add(ZYDIS_MNEMONIC_VPSCATTERQQ, liftAvx512GatherScatter<64, 64, true>);
  table.add(ZYDIS_MNEMONIC_VSCATTERDPS, liftAvx512GatherScatter<32, 32, true>);
  table.add(ZYDIS_MNEMONIC_VSCATTERDPD, liftAvx512GatherScatter<64, 32, true>);
  table.add(ZYDIS_MNEMONIC_VSCATTERQPS, liftAvx512GatherScatter<32, 64, true>);
  table.add(ZYDIS_MNEMONIC_VSCATTERQPD, liftAvx512GatherScatter<64, 64, true>);
}

} // namespace hoist
