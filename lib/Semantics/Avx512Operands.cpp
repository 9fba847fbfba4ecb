#include "Semantics/Avx512Operands.h"

#include "Semantics/SimdHelpers.h"

#include <llvm/ADT/SmallVector.h>

namespace hoist::avx512 {
namespace {

Var maskVarOf(ZydisRegister reg) {
  int id = ZydisRegisterGetId(reg);
  assert(ZydisRegisterGetClass(reg) == ZYDIS_REGCLASS_MASK && id >= 0 && id < 8);
  return maskVar(static_cast<unsigned>(id));
}

llvm::Value *splatElement(LiftContext &ctx, llvm::Value *element, unsigned count) {
  return ctx.ir.CreateVectorSplat(count, element);
}

/// Whether any element of the `<n x i1>` mask is enabled.
llvm::Value *anyEnabled(LiftContext &ctx, llvm::Value *mask) {
  return ctx.ir.CreateICmpNE(bitsToInteger(ctx, mask),
                             llvm::Constant::getNullValue(ctx.intType(simd::elementCount(mask))));
}

/// The #GP of an aligned form (vmovdqa32, vmovaps, ...) on memory not aligned to `bytes`: with
/// a write mask, only when the mask enables an element of the `count`; a move with every
/// element masked off touches no memory and, as the CPU shows, does not fault.
void trapIfMisalignedAccess(LiftContext &ctx, llvm::Value *address, unsigned bytes,
                            unsigned count) {
  const Instr &instr = ctx.instr();
  if (instr.evex.mask == ZYDIS_REGISTER_NONE) {
    ctx.trapIfMisaligned(address, bytes);
    return;
  }
  auto &ir = ctx.ir;
  llvm::Value *misaligned =
      ir.CreateICmpNE(ir.CreateAnd(address, ir.getInt64(bytes - 1)), ir.getInt64(0));
  llvm::Value *accessed = anyEnabled(ctx, writeMask(ctx, count));
  ctx.control().trapIf(ir.CreateAnd(misaligned, accessed), ir.getInt64(instr.address),
                       HOIST_EXCEPTION_GP);
}

/// The embedded broadcast ({1toN}): one element at `address` in all `count`; with `masked`,
/// read only when the write mask enables any element of the result.
llvm::Value *loadBroadcast(LiftContext &ctx, llvm::Value *address, llvm::Type *element,
                           unsigned count, bool masked) {
  if (!masked)
    return splatElement(ctx, ctx.load(address, element), count);
  auto *single = llvm::FixedVectorType::get(element, 1);
  llvm::Value *enabled = ctx.ir.CreateVectorSplat(1, anyEnabled(ctx, writeMask(ctx, count)));
  llvm::Value *loaded =
      ctx.ir.CreateMaskedLoad(single, simd::memoryPointer(ctx, address), llvm::Align(1), enabled,
                              llvm::Constant::getNullValue(single));
  return splatElement(ctx, ctx.ir.CreateExtractElement(loaded, uint64_t(0)), count);
}

} // namespace

unsigned dataOperand(const Instr &instr, unsigned n) {
  unsigned seen = 0;
  for (unsigned i = 0; i < instr.explicitCount; ++i) {
    if (instr.op(i).isWriteMask)
      continue;
    if (seen++ == n)
      return i;
  }
  assert(false && "the instruction has fewer operands");
  return 0;
}

llvm::Value *readMaskRegister(LiftContext &ctx, ZydisRegister reg) {
  return ctx.readVar(maskVarOf(reg));
}

void writeMaskRegister(LiftContext &ctx, ZydisRegister reg, llvm::Value *value) {
  if (value->getType()->isVectorTy())
    value = bitsToInteger(ctx, value);
  if (value->getType()->getIntegerBitWidth() < 64)
    value = ctx.ir.CreateZExt(value, ctx.ir.getInt64Ty());
  ctx.writeVar(maskVarOf(reg), value);
}

llvm::Value *bitsToInteger(LiftContext &ctx, llvm::Value *bits) {
  return ctx.ir.CreateBitCast(bits, ctx.intType(simd::elementCount(bits)));
}

llvm::Value *integerToBits(LiftContext &ctx, llvm::Value *integer, unsigned count) {
  llvm::Value *low = ctx.ir.CreateTrunc(integer, ctx.intType(count));
  return ctx.ir.CreateBitCast(low, llvm::FixedVectorType::get(ctx.ir.getInt1Ty(), count));
}

llvm::Value *writeMask(LiftContext &ctx, unsigned count) {
  const Instr &instr = ctx.instr();
  if (instr.evex.mask == ZYDIS_REGISTER_NONE)
    return llvm::Constant::getAllOnesValue(llvm::FixedVectorType::get(ctx.ir.getInt1Ty(), count));
  return integerToBits(ctx, readMaskRegister(ctx, instr.evex.mask), count);
}

llvm::Value *readSource(LiftContext &ctx, unsigned index, llvm::Type *element,
                        unsigned alignedBytes, MemoryMask memory) {
  const Instr &instr = ctx.instr();
  const Operand &operand = instr.op(index);
  unsigned count = elementCount(instr, element->getPrimitiveSizeInBits());
  if (operand.isReg()) {
    llvm::Value *value = ctx.readVectorReg(operand.reg, element);
    return simd::resize(ctx, value, count);
  }
  assert(operand.isMem() && "an EVEX source is a register or memory");
  llvm::Value *address = ctx.effectiveAddress(operand);
  if (alignedBytes)
    trapIfMisalignedAccess(ctx, address, alignedBytes, count);
  bool masked = instr.evex.mask != ZYDIS_REGISTER_NONE && memory == MemoryMask::PerElement;
  llvm::Type *vector = ctx.vectorType(element, vectorBits(instr));
  if (instr.evex.broadcastCount)
    return loadBroadcast(ctx, address, element, count, masked);
  if (!masked)
    return ctx.load(address, vector);
  return ctx.ir.CreateMaskedLoad(vector, simd::memoryPointer(ctx, address), llvm::Align(1),
                                 writeMask(ctx, count), llvm::Constant::getNullValue(vector));
}

llvm::Value *readElements(LiftContext &ctx, unsigned index, llvm::Type *element, unsigned count) {
  const Operand &operand = ctx.instr().op(index);
  if (operand.isReg())
    return simd::resize(ctx, ctx.readVectorReg(operand.reg, element), count);
  llvm::Value *address = ctx.effectiveAddress(operand);
  auto *vector = llvm::FixedVectorType::get(element, count);
  bool masked = ctx.instr().evex.mask != ZYDIS_REGISTER_NONE;
  if (ctx.instr().evex.broadcastCount)
    return loadBroadcast(ctx, address, element, count, masked);
  if (!masked)
    return ctx.load(address, vector);
  return ctx.ir.CreateMaskedLoad(vector, simd::memoryPointer(ctx, address), llvm::Align(1),
                                 writeMask(ctx, count), llvm::Constant::getNullValue(vector));
}

llvm::Value *readScalarSource(LiftContext &ctx, unsigned index, llvm::Type *element) {
  llvm::Value *value = readElements(ctx, index, element, 1);
  return ctx.ir.CreateExtractElement(value, uint64_t(0));
}

void writeScalarResult(LiftContext &ctx, llvm::Value *upper, llvm::Value *low) {
  const Instr &instr = ctx.instr();
  const Operand &destination = instr.op(0);
  if (instr.evex.mask != ZYDIS_REGISTER_NONE) {
    llvm::Type *element = low->getType();
    llvm::Value *kept =
        instr.evex.zeroing
            ? llvm::Constant::getNullValue(element)
            : ctx.ir.CreateExtractElement(ctx.readVectorReg(destination.reg, element), uint64_t(0));
    llvm::Value *enabled = ctx.ir.CreateExtractElement(writeMask(ctx, 1), uint64_t(0));
    low = ctx.ir.CreateSelect(enabled, low, kept);
  }
  ctx.writeVectorReg(destination.reg, ctx.ir.CreateInsertElement(upper, low, uint64_t(0)));
}

LiftStatus liftOneSource(LiftContext &ctx, llvm::Type *element, UnaryCompute compute,
                         MemoryMask memory) {
  llvm::Value *a = readSource(ctx, dataOperand(ctx.instr(), 1), element, 0, memory);
  writeResult(ctx, compute(a));
  return LiftStatus::Lifted;
}

LiftStatus liftTwoSources(LiftContext &ctx, llvm::Type *element, BinaryCompute compute,
                          MemoryMask memory) {
  const Instr &instr = ctx.instr();
  llvm::Value *a = readSource(ctx, dataOperand(instr, 1), element, 0, memory);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 2), element, 0, memory);
  writeResult(ctx, compute(a, b));
  return LiftStatus::Lifted;
}

LiftStatus liftThreeSources(LiftContext &ctx, llvm::Type *element, TernaryCompute compute) {
  const Instr &instr = ctx.instr();
  llvm::Value *a = readSource(ctx, dataOperand(instr, 0), element);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *c = readSource(ctx, dataOperand(instr, 2), element);
  writeResult(ctx, compute(a, b, c));
  return LiftStatus::Lifted;
}

LiftStatus liftTwoSourcesToMask(LiftContext &ctx, llvm::Type *element, BinaryCompute compute) {
  const Instr &instr = ctx.instr();
  llvm::Value *a = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 2), element);
  writeMaskResult(ctx, compute(a, b));
  return LiftStatus::Lifted;
}

void writeResult(LiftContext &ctx, llvm::Value *result, unsigned alignedBytes) {
  const Instr &instr = ctx.instr();
  const Operand &destination = instr.op(0);
  unsigned count = simd::elementCount(result);
  bool masked = instr.evex.mask != ZYDIS_REGISTER_NONE;
  if (destination.isMem()) {
    llvm::Value *address = ctx.effectiveAddress(destination);
    if (alignedBytes)
      trapIfMisalignedAccess(ctx, address, alignedBytes, count);
    if (!masked)
      ctx.store(address, result);
    else
      ctx.ir.CreateMaskedStore(result, simd::memoryPointer(ctx, address), llvm::Align(1),
                               writeMask(ctx, count));
    return;
  }
  llvm::Type *element = llvm::cast<llvm::FixedVectorType>(result->getType())->getElementType();
  if (masked) {
    llvm::Value *kept = instr.evex.zeroing
                            ? llvm::Constant::getNullValue(result->getType())
                            : simd::resize(ctx, ctx.readVectorReg(destination.reg, element), count);
    result = ctx.ir.CreateSelect(writeMask(ctx, count), result, kept);
  }
  // The destination register names the vector length; writeVectorReg zeroes the rest. A result
  // narrower than the register (vpmovqd xmm1, xmm2; vcvtpd2ps xmm1, xmm2) fills its low part
  // and the rest of the register is zero.
  unsigned registerCount = LiftContext::vectorRegisterBits(destination.reg) /
                           element->getPrimitiveSizeInBits();
  ctx.writeVectorReg(destination.reg, simd::resize(ctx, result, registerCount));
}

void writeMaskResult(LiftContext &ctx, llvm::Value *bits) {
  unsigned count = simd::elementCount(bits);
  if (ctx.instr().evex.mask != ZYDIS_REGISTER_NONE)
    bits = ctx.ir.CreateAnd(bits, writeMask(ctx, count));
  writeMaskRegister(ctx, ctx.instr().op(0).reg, bits);
}

} // namespace hoist::avx512
