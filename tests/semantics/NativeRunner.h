// Runs instruction bytes on the real CPU from a controlled state.
//
// Memory: one mapping holds the code page (read, write, execute) followed by an arena of a
// data page and two stack pages. The lifted code runs against the same addresses, so the
// arena is reset to the same bytes before each of the two runs and compared after.
#pragma once

#include "hoist/State.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hoist::test {

struct CpuState {
  uint64_t gpr[16];
  uint64_t rip;
  uint8_t cf, pf, af, zf, sf, df, of;
};

class NativeRunner {
public:
  static constexpr size_t CodeSize = 0x1000;
  static constexpr size_t DataSize = 0x1000;
  static constexpr size_t StackSize = 0x2000;
  static constexpr size_t ArenaSize = DataSize + StackSize;
  /// Exit stubs: after the instruction, at the branch-target offset, and for indirect targets.
  static constexpr size_t BranchTargetDistance = 0x40;
  static constexpr size_t IndirectStubOffset = 0x200;

  NativeRunner();
  ~NativeRunner();

  uint64_t codeAddress() const { return reinterpret_cast<uint64_t>(code_); }
  uint64_t dataAddress() const { return codeAddress() + CodeSize; }
  uint64_t stackAddress() const { return dataAddress() + DataSize; }
  uint64_t indirectTarget() const { return codeAddress() + IndirectStubOffset; }
  uint8_t *arena() const { return code_ + CodeSize; }

  /// Places the instruction at the start of the code page, with exit stubs after it.
  void load(const std::vector<uint8_t> &bytes);

  /// Runs from `in`; false when the instruction faulted (signal caught).
  bool run(const CpuState &in, CpuState &out);

private:
  void writeStub(size_t offset);
  uint8_t *code_ = nullptr;
  void *altStack_ = nullptr;
};

} // namespace hoist::test
