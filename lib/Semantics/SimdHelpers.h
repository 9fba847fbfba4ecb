// Small pieces shared by the SIMD semantics: immediates, MMX rejection, sub-vectors, shuffle
// masks and raw memory pointers for masked accesses.
#pragma once

#include "Semantics/Semantics.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Instructions.h>

namespace hoist::simd {

/// The raw immediate of operand `index` (imm8 of pshufd, insertps, ...).
inline unsigned immediate(const Instr &instr, unsigned index) {
  return static_cast<unsigned>(instr.op(index).imm & 0xff);
}

/// MMX registers (mm0-mm7) are not modelled; a semantic meeting one returns unsupported().
inline bool usesMmx(const Instr &instr) {
  for (unsigned i = 0; i < instr.operandCount; ++i)
    if (instr.op(i).isReg() && ZydisRegisterGetClass(instr.op(i).reg) == ZYDIS_REGCLASS_MMX)
      return true;
  return false;
}

/// The number of elements of a fixed vector value.
inline unsigned elementCount(llvm::Value *vector) {
  return llvm::cast<llvm::FixedVectorType>(vector->getType())->getNumElements();
}

/// `vector` cut or widened to `count` elements; new elements are zero.
inline llvm::Value *resize(LiftContext &ctx, llvm::Value *vector, unsigned count) {
  unsigned have = elementCount(vector);
  if (have == count)
    return vector;
  llvm::SmallVector<int, 32> mask;
  for (unsigned i = 0; i < count; ++i)
    mask.push_back(i < have ? int(i) : int(have));
  return ctx.ir.CreateShuffleVector(vector, llvm::Constant::getNullValue(vector->getType()), mask);
}

/// Operand `index` as a vector of `element` that is exactly `bits` wide: the low `bits` of a
/// register, or memory of that size (with readVector's alignment rule when the operand has
/// that size).
inline llvm::Value *readVectorBits(LiftContext &ctx, unsigned index, llvm::Type *element,
                                   unsigned bits) {
  const Operand &operand = ctx.instr().op(index);
  unsigned elementBits = element->getPrimitiveSizeInBits();
  if (operand.isMem() && operand.bits != bits)
    return ctx.load(ctx.effectiveAddress(operand), ctx.vectorType(element, bits));
  return resize(ctx, ctx.readVector(index, element), bits / elementBits);
}

/// A pointer to guest memory at `address`, as LiftContext::load addresses it, for the
/// llvm.masked.* intrinsics: they touch only the enabled elements, as vmaskmov does.
inline llvm::Value *memoryPointer(LiftContext &ctx, llvm::Value *address) {
  auto *probe = llvm::cast<llvm::LoadInst>(ctx.load(address, ctx.ir.getInt8Ty()));
  llvm::Value *pointer = probe->getPointerOperand();
  probe->eraseFromParent();
  return pointer;
}

/// A vector of i1, true where the element of `vector` has its sign bit set.
inline llvm::Value *signBits(LiftContext &ctx, llvm::Value *vector) {
  return ctx.ir.CreateICmpSLT(vector, llvm::Constant::getNullValue(vector->getType()));
}

} // namespace hoist::simd
