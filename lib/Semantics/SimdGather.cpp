// AVX2 gathers (Zydis category AVX2GATHER): vpgatherdd/dq/qd/qq and vgatherdps/dpd/qps/qpd,
// xmm and ymm forms, with a VSIB memory operand [base + vindex*scale + disp].
#include "Semantics/Semantics.h"
#include "Semantics/SimdHelpers.h"

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

/// vpgather*, vgather*: element i (i < the number of indices and of destination elements) is
/// loaded from its VSIB address when the sign bit of mask element i is set and kept from the
/// destination otherwise; then the mask register is zero, and destination and mask elements
/// beyond the gathered ones are zero (vpgatherqd xmm: bits 64..255). SDM vol. 2, VPGATHERDD.
/// Elements are loaded one by one in order and masked-off ones are never accessed, as on the
/// CPU, which on a fault keeps the elements before it done and their mask bits cleared.
template <unsigned ElementBits, unsigned IndexBits>
LiftStatus liftGather(LiftContext &ctx, const Instr &instr) {
  const Operand &destination = instr.op(0), &memory = instr.op(1), &maskOperand = instr.op(2);
  // Any two of destination, index and mask the same register is #UD; 32-bit addresses would
  // need the sum truncated per element, which no compiler emits: leave both to the fallback.
  auto number = [](ZydisRegister reg) { return ZydisRegisterGetId(reg); };
  if (!destination.isReg() || !memory.isMem() || !maskOperand.isReg() ||
      !LiftContext::isVectorRegister(memory.index) || instr.addressWidth != 64 ||
      number(destination.reg) == number(maskOperand.reg) ||
      number(destination.reg) == number(memory.index) ||
      number(maskOperand.reg) == number(memory.index))
    return ctx.unsupported();

  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *old = ctx.readVectorReg(destination.reg, element);
  unsigned registerElements = simd::elementCount(old);
  unsigned count = std::min(registerElements,
                            LiftContext::vectorRegisterBits(memory.index) / IndexBits);
  llvm::Value *mask = simd::signBits(ctx, ctx.readVectorReg(maskOperand.reg, element));
  llvm::Value *addresses = elementAddresses(ctx, memory, IndexBits, count);

  auto *single = llvm::FixedVectorType::get(element, 1);
  llvm::Value *result = simd::resize(ctx, old, count);
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *address = ctx.ir.CreateExtractElement(addresses, uint64_t(i));
    llvm::Value *enabled = ctx.ir.CreateVectorSplat(1, ctx.ir.CreateExtractElement(mask, i));
    llvm::Value *previous = ctx.ir.CreateVectorSplat(1, ctx.ir.CreateExtractElement(old, i));
    llvm::Value *loaded = ctx.ir.CreateMaskedLoad(single, simd::memoryPointer(ctx, address),
                                                  llvm::Align(1), enabled, previous);
    result = ctx.ir.CreateInsertElement(result, ctx.ir.CreateExtractElement(loaded, uint64_t(0)),
                                        i);
  }
  ctx.writeVectorReg(destination.reg, simd::resize(ctx, result, registerElements));
  ctx.writeVectorReg(maskOperand.reg, llvm::Constant::getNullValue(old->getType()));
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

} // namespace hoist
