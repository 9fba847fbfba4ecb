// The operands of EVEX instructions (SDM vol. 2, 2.7): the write mask ({k1}, {k1}{z}), embedded
// broadcast ({1to16}), the vector length, and memory accesses that touch only the elements the
// mask enables. Every AVX-512 semantic reads and writes through these, so that masking,
// zeroing and the zeroing of the bits above the vector length are right in one place.
//
// Compressed displacements (disp8*N) need nothing here: Zydis reports the displacement already
// multiplied by N, and the differential forms with disp8 memory operands check it.
#pragma once

#include "Semantics/Semantics.h"

namespace hoist::avx512 {

/// The index of the `n`th explicit operand that is not the write mask: 0 is the destination,
/// 1 the first source... (the decoder lists {k1} as operand 1 of a masked instruction).
unsigned dataOperand(const Instr &instr, unsigned n);

/// The vector length in bits (128, 256 or 512).
inline unsigned vectorBits(const Instr &instr) { return instr.evex.vectorBits; }
/// The number of `elementBits` elements in the vector length.
inline unsigned elementCount(const Instr &instr, unsigned elementBits) {
  return vectorBits(instr) / elementBits;
}

/// Opmask register k0-k7 as i64.
llvm::Value *readMaskRegister(LiftContext &ctx, ZydisRegister reg);
/// Writes the low bits of `value` (an integer of up to 64 bits, or a vector of i1) to an
/// opmask register, zeroing the bits above them (SDM vol. 1, 15.6.3).
void writeMaskRegister(LiftContext &ctx, ZydisRegister reg, llvm::Value *value);

/// The write mask as `<count x i1>`: element i enabled when bit i of the mask register is
/// set, every element enabled when the instruction is not masked.
llvm::Value *writeMask(LiftContext &ctx, unsigned count);

/// Operand `index` (a vector register, memory, or memory with embedded broadcast) as a vector
/// of `element` filling the vector length. A full memory operand of a masked instruction
/// loads only the enabled elements (the others read as zero), so that a masked-off element on
/// an unmapped page does not fault (SDM vol. 1, 15.6.4 "memory fault suppression"); a
/// broadcast element is loaded when any element is enabled.
/// `alignedBytes` non-zero: memory must be aligned to it (#GP otherwise) when the mask enables
/// any element.
llvm::Value *readSource(LiftContext &ctx, unsigned index, llvm::Type *element,
                        unsigned alignedBytes = 0);

/// Writes `result` (a vector filling the vector length) to the destination, operand 0, under
/// the write mask: a register keeps (merging) or zeroes ({z}) its disabled elements and has
/// the bits above the vector length zeroed; memory is written only where elements are
/// enabled. `alignedBytes` non-zero: memory must be aligned to it (#GP otherwise) when the
/// mask enables any element.
void writeResult(LiftContext &ctx, llvm::Value *result, unsigned alignedBytes = 0);

/// For an instruction whose destination is an opmask register (compares, tests): `bits`
/// (a vector of i1) with the disabled elements cleared, written to operand 0.
void writeMaskResult(LiftContext &ctx, llvm::Value *bits);

/// `<count x i1>` as an integer of `count` bits, and back.
llvm::Value *bitsToInteger(LiftContext &ctx, llvm::Value *bits);
llvm::Value *integerToBits(LiftContext &ctx, llvm::Value *integer, unsigned count);

} // namespace hoist::avx512
