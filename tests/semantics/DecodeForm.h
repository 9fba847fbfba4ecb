// For the harness's own tests: a form's text as the decoded instruction the harness runs.
#pragma once

#include "Assembler.h"
#include "CodeLayout.h"
#include "Decode/Decoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hoist::test {

/// Assembles `text` and decodes it at the test instruction's address; a failure of either is
/// a test failure (and an empty Instr).
inline Instr decodeForm(const std::string &text) {
  Instr instr;
  llvm::Expected<std::vector<uint8_t>> bytes = assemble(text);
  EXPECT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  if (bytes) {
    EXPECT_EQ(Decoder().decode(bytes->data(), bytes->size(), layout::InstructionAddress, instr),
              DecodeStatus::Ok);
  }
  return instr;
}

} // namespace hoist::test
