// The forms random sequences are made of: the differential table's forms (Forms.def) that can
// run anywhere in a sequence, plus a few of the sequence tests' own that make a memory operand's
// address from the register the instruction writes.
//
// Left out: control transfers (the sequence makes its own forward jumps), anything that reads
// or writes RSP or a segment, MMX, x87 and AVX registers, string instructions, instructions
// with an implicit memory operand, system and model-specific instructions (cpuid, rdrand,
// ldmxcsr ...), forms whose result some input leaves undefined, and RIP-relative forms whose
// address depends on where they sit.
#pragma once

#include "Decode/Instr.h"
#include "SequenceFlags.h"

#include <string>
#include <vector>

namespace hoist::test {

/// What a form needs before it, so that it runs without faulting in any sequence.
enum class FormSetup {
  None,
  Memory,           ///< its memory operand's registers pointed into the data page
  Divide,           ///< div/idiv: a nonzero divisor and a dividend whose quotient fits
  BitOffsetMemory,  ///< bt* [m], r: the bit offset register small, the address as Memory
};

struct SequenceForm {
  std::string text;
  Instr instr;   ///< decoded at layout::InstructionAddress
  FlagEffect flags;
  FormSetup setup = FormSetup::None;
  bool simd = false;
};

/// Every usable form, assembled and decoded once per process.
const std::vector<SequenceForm> &sequenceForms();

} // namespace hoist::test
