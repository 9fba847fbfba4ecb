// Assembles one Intel-syntax x86-64 instruction in-process with LLVM MC, for the address the
// harness runs it at (layout::InstructionAddress), so a test form is written as the manual
// writes it. A form may use these names (CodeLayout.h):
//
//   target, far_target   labels after the instruction: reached by rel8 / only by rel32
//   back, far_back       labels before it: likewise
//   data                 the data page's address: `[data+rax*8]` (absolute), `[rip+data+0x10]`
//
// Anything else MC accepts works too, e.g. `.byte 0x66, 0x90` for an exact encoding.
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hoist::test {

/// The bytes of the single instruction `text`, relocations resolved for its fixed address.
/// Fails when the text is not exactly one instruction or names an unknown symbol.
llvm::Expected<std::vector<uint8_t>> assemble(const std::string &text);

/// Several instructions placed one after the other from layout::InstructionAddress (the
/// sequence tests, SequenceTest.cpp). `lines` may hold labels of their own (`skip_3:`) that
/// branches inside the sequence jump to; every other line must be exactly one instruction.
struct AssembledSequence {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> offsets;   ///< where each instruction starts, from the first
};
llvm::Expected<AssembledSequence> assembleSequence(const std::vector<std::string> &lines);

} // namespace hoist::test
