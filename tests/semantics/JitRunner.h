// Lifts instruction bytes with Hoist once, compiles them with ORC LLJIT once, and runs the
// lifted function from any number of states.
#pragma once

#include "CpuState.h"

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/Error.h>

#include <memory>
#include <string>
#include <vector>

struct HoistState;

namespace hoist::test {

/// XCR0 of this machine (xgetbv): what the lifted runs get in State.XCR0.
uint64_t hostXcr0();

class JitRunner {
public:
  /// Lifts `bytes` located at `address` (where the native runner runs them), verifies the
  /// module and compiles it.
  static llvm::Expected<std::unique_ptr<JitRunner>> create(const std::vector<uint8_t> &bytes,
                                                          uint64_t address);

  /// Runs from `in`. The result is the State at the first control-transfer intrinsic, which
  /// is where the native run reaches its exit stub; __hoist_trap makes it a Fault and
  /// __hoist_unsupported an Unsupported. False, with `error`, when the lifted code returned
  /// without leaving through any intrinsic.
  bool run(const CpuState &in, RunResult &out, std::string &error);

  /// The lifted module as text and the lifter's diagnostics, for failure reports.
  const std::string &ir() const { return ir_; }
  const std::string &diagnostics() const { return diagnostics_; }

private:
  JitRunner() = default;

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  void (*function_)(HoistState *, void *) = nullptr;
  std::string ir_;
  std::string diagnostics_;
};

} // namespace hoist::test
