// The operands of EVEX instructions (SDM vol. 2, 2.7): the write mask ({k1}, {k1}{z}), embedded
// broadcast ({1to16}), the vector length, and memory accesses that touch only the elements the
// mask enables. Every AVX-512 semantic reads and writes through these, so that masking,
// zeroing and the zeroing of the bits above the vector length are right in one place.
//
// Compressed displacements (disp8*N) need nothing here: Zydis reports the displacement already
// multiplied by N, and the differential forms with disp8 memory operands check it.
#pragma once

#include "Semantics/Semantics.h"

#include <llvm/ADT/STLFunctionalExtras.h>

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

/// How a masked instruction reads a memory source.
enum class MemoryMask {
  /// Only the elements the write mask enables are loaded, so a masked-off element on an
  /// unmapped page does not fault (SDM vol. 1, 15.6.4): moves, arithmetic, compares.
  PerElement,
  /// The whole operand (or the broadcast element) is loaded whatever the mask: the shuffles,
  /// permutes, packs and multiply-adds whose result elements mix several source elements.
  /// This CPU faults on such an operand on an unmapped page with every element masked off.
  Whole,
};

/// Operand `index` (a vector register, memory, or memory with embedded broadcast) as a vector
/// of `element` filling the vector length. A full memory operand of a masked instruction
/// loads only the enabled elements (the others read as zero), so that a masked-off element on
/// an unmapped page does not fault (SDM vol. 1, 15.6.4 "memory fault suppression"); a
/// broadcast element is loaded when any element is enabled.
/// `alignedBytes` non-zero: memory must be aligned to it (#GP otherwise) when the mask enables
/// any element. `memory` Whole: the operand is loaded whatever the mask (see MemoryMask).
llvm::Value *readSource(LiftContext &ctx, unsigned index, llvm::Type *element,
                        unsigned alignedBytes = 0, MemoryMask memory = MemoryMask::PerElement);

/// Operand `index` as `count` elements of `element`, one for each element of the result, which
/// may be narrower than the vector length (vpmovzxbw zmm1, ymm2/m256): the low elements of a
/// register, memory loaded only where the write mask enables the element, or a broadcast.
llvm::Value *readElements(LiftContext &ctx, unsigned index, llvm::Type *element, unsigned count);

/// The low element of a scalar source: an xmm register, or memory read only when the write
/// mask enables the element (the CPU does not fault on it otherwise).
llvm::Value *readScalarSource(LiftContext &ctx, unsigned index, llvm::Type *element);

/// Writes a scalar result to the destination xmm register: `low` in element 0 where the write
/// mask enables it, else the destination's element 0 (zero with {z}); elements 1.. from
/// `upper` (an xmm value); the rest of the register zeroed.
void writeScalarResult(LiftContext &ctx, llvm::Value *upper, llvm::Value *low);

/// Writes `result` (a vector filling the vector length) to the destination, operand 0, under
/// the write mask: a register keeps (merging) or zeroes ({z}) its disabled elements and has
/// the bits above the vector length zeroed; memory is written only where elements are
/// enabled. `alignedBytes` non-zero: memory must be aligned to it (#GP otherwise) when the
/// mask enables any element. A result narrower than the destination register fills its low
/// part, the rest zero.
void writeResult(LiftContext &ctx, llvm::Value *result, unsigned alignedBytes = 0);

/// For an instruction whose destination is an opmask register (compares, tests): `bits`
/// (a vector of i1) with the disabled elements cleared, written to operand 0.
void writeMaskResult(LiftContext &ctx, llvm::Value *bits);

/// What an instruction computes from its sources, vectors filling the vector length.
using UnaryCompute = llvm::function_ref<llvm::Value *(llvm::Value *)>;
using BinaryCompute = llvm::function_ref<llvm::Value *(llvm::Value *, llvm::Value *)>;
using TernaryCompute =
    llvm::function_ref<llvm::Value *(llvm::Value *, llvm::Value *, llvm::Value *)>;

/// dest = compute(src1) under the write mask: data operand 1 read as a vector of `element`.
LiftStatus liftOneSource(LiftContext &ctx, llvm::Type *element, UnaryCompute compute,
                         MemoryMask memory = MemoryMask::PerElement);

/// dest = compute(src1, src2) under the write mask: data operands 1 and 2 read as vectors of
/// `element` (memory as `memory` says).
LiftStatus liftTwoSources(LiftContext &ctx, llvm::Type *element, BinaryCompute compute,
                          MemoryMask memory = MemoryMask::PerElement);

/// dest = compute(dest, src1, src2) under the write mask, for the instructions that read
/// their destination (vpternlog, the dot products, FMA): data operands 0 to 2 as vectors of
/// `element`.
LiftStatus liftThreeSources(LiftContext &ctx, llvm::Type *element, TernaryCompute compute);

/// k1 {k2} = compute(src1, src2), a vector of i1 per element, for compares and tests.
LiftStatus liftTwoSourcesToMask(LiftContext &ctx, llvm::Type *element, BinaryCompute compute);

/// `<count x i1>` as an integer of `count` bits, and back.
llvm::Value *bitsToInteger(LiftContext &ctx, llvm::Value *bits);
llvm::Value *integerToBits(LiftContext &ctx, llvm::Value *integer, unsigned count);

} // namespace hoist::avx512
