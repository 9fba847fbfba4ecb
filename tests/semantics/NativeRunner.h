// Runs instruction bytes on the real CPU from a controlled state.
//
// The instruction sits in the code page of the fixed mapping (CodeLayout.h), followed and
// preceded by exit stubs at every address control can reach: the fallthrough, the four branch
// labels and the planted indirect target. A stub records the registers and its own address
// (the exit RIP); a fault is caught by FaultGuard with the registers at the faulting
// instruction. The arena (data and stack pages) is whatever the caller left there.
#pragma once

#include "CodeLayout.h"
#include "CpuState.h"

#include <cstdint>
#include <vector>

namespace hoist::test {

class NativeRunner {
public:
  /// The one runner of the process (the mapping is at a fixed address).
  static NativeRunner &instance();

  /// Places the instruction (or a sequence of them, SequenceTest.cpp) at
  /// layout::InstructionAddress and writes the exit stubs after its end.
  void load(const std::vector<uint8_t> &bytes);

  /// Runs the loaded instruction from `in`. A signal raised by anything but the tested code
  /// (the harness's entry and exit, an exit stub) is Outcome::HarnessError, not Fault.
  RunResult run(const CpuState &in);

  /// The live arena at layout::ArenaAddress, layout::ArenaSize bytes.
  uint8_t *arena() const { return reinterpret_cast<uint8_t *>(layout::ArenaAddress); }

private:
  NativeRunner();
  void writeExitStub(uint64_t offset);
  /// Whether a fault at `rip` is in code of the harness rather than of the form.
  bool isHarnessCode(uint64_t rip) const;

  std::vector<uint64_t> exitStubs_;   ///< addresses of the stubs of the loaded instruction
};

} // namespace hoist::test
