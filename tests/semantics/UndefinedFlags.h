// Which flags the manual leaves undefined for one execution, so the comparison masks exactly
// those: an undefined flag is a value the lifter and the optimizer may choose freely.
#pragma once

#include "CpuState.h"
#include "Decode/Instr.h"

#include <array>
#include <cstdint>

namespace hoist::test {

/// What the manual leaves undefined after one execution.
struct Undefined {
  uint32_t flags = 0;       ///< RFLAGS mask (FlagCF ...)
  /// The bits of GPR i (RAX=0 ... R15=15) not compared: those the manuals leave undefined for
  /// these inputs, or where the vendors define different results.
  std::array<uint64_t, 16> registerBits{};
  /// MXCSR and x87 status word bits not compared: undefined, or not modelled by Hoist (the
  /// floating-point exception flags, docs/DESIGN.md "Floating-point exceptions").
  uint32_t mxcsr = 0;
  uint16_t fsw = 0;
};

/// Zydis' flag set for the instruction, refined where the SDM makes it depend on the operands,
/// plus the destination registers the SDM leaves undefined for these inputs.
Undefined undefinedEffects(const Instr &instr, const CpuState &in);
/// The flag part of undefinedEffects.
uint32_t undefinedFlags(const Instr &instr, const CpuState &in);

/// The value of a register or immediate operand as the instruction reads it (the low bits
/// matter; AH..BH are shifted down); 0 for memory operands.
uint64_t operandValue(const Operand &operand, const CpuState &in);

// Operand-dependent rules per instruction family, each in its own file. Each returns true and
// fills `out` (which starts as Zydis' static set) when the instruction is one of its family.
bool shiftUndefined(const Instr &instr, const CpuState &in, Undefined &out);
bool bitByteUndefined(const Instr &instr, const CpuState &in, Undefined &out);
bool rotateUndefined(const Instr &instr, const CpuState &in, Undefined &out);
bool arithmeticUndefined(const Instr &instr, const CpuState &in, Undefined &out);
/// Fills `mxcsr` and `fsw` for every instruction (UndefinedFp.cpp); not one of the chain.
void fpUndefined(const Instr &instr, const CpuState &in, Undefined &out);
/// x87 refinements of the above, per instruction (UndefinedX87.cpp): may narrow `fsw` to the
/// condition codes an instruction really defines.
void x87Undefined(const Instr &instr, const CpuState &in, Undefined &out);

} // namespace hoist::test
