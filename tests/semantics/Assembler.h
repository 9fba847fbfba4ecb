// Assembles Intel-syntax x86-64 text in-process with LLVM MC, so a test form is written as the
// manual writes it. A form may jump or call to the label `target`, which the assembler places
// NativeRunner::BranchTargetDistance bytes after the end of the instruction.
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hoist::test {

/// The bytes of the single instruction `text`.
llvm::Expected<std::vector<uint8_t>> assemble(const std::string &text);

} // namespace hoist::test
