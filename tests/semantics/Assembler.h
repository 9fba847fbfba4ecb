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

} // namespace hoist::test
