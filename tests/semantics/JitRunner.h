// Lifts instruction bytes with Hoist and runs the lifted function through ORC JIT.
#pragma once

#include "NativeRunner.h"

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/Error.h>

#include <memory>
#include <string>
#include <vector>

namespace hoist::test {

class JitRunner {
public:
  /// Lifts `bytes` located at `address` (the native code page) and compiles it.
  static llvm::Expected<std::unique_ptr<JitRunner>> create(const std::vector<uint8_t> &bytes,
                                                          uint64_t address);

  /// Runs from `in`. The result is the State at the first control-transfer intrinsic, which
  /// is what the native exit stub sees. Returns false when the lifted code reached
  /// __hoist_unsupported or __hoist_trap (message in `why`).
  bool run(const CpuState &in, CpuState &out, std::string &why);

private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  void (*function_)(HoistState *, void *) = nullptr;
};

} // namespace hoist::test
