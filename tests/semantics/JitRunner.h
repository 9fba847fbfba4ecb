// Lifts instruction bytes (or a function of a binary with the functions it calls) with Hoist
// once, compiles them with ORC LLJIT once, and runs the lifted function from any number of
// states.
#pragma once

#include "CpuState.h"
#include "FaultGuard.h"

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

struct HoistState;

namespace hoist {
class Image;
}

namespace hoist::test {

/// XCR0 of this machine (xgetbv): what the lifted runs get in State.XCR0.
uint64_t hostXcr0();

/// The first control-transfer intrinsic a run reached; None when the lifted function returned
/// without one, which is how a `ret` leaves.
enum class ExitKind { None, Call, Jmp, Trap, Unsupported };

struct StateRun {
  bool hostCrash = false;   ///< the run raised a signal; `fault` says which
  Fault fault;
  ExitKind firstExit = ExitKind::None;
  uint64_t exitAddress = 0;   ///< the intrinsic's address argument
};

/// What happens to the lifted module between the lifter and the JIT (the sequence tests run
/// Hoist's pipelines here, SequenceTest.cpp). Both are optional.
struct ModuleSteps {
  /// Runs on the verified module: an optimization pipeline, say.
  std::function<llvm::Error(llvm::Module &, const Image &)> transform;
  /// When set, the module is compiled to a relocatable object by this function (the
  /// `--emit obj` code generator) and the JIT links that object instead of compiling the IR.
  std::function<llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>(llvm::Module &)> toObject;
  /// Keep the module's text for ir(); printing costs about as much as a small lift.
  bool keepIr = true;
};

class JitRunner {
public:
  /// Lifts `bytes` located at `address` (where the native runner runs them), verifies the
  /// module, applies `steps` and compiles it.
  static llvm::Expected<std::unique_ptr<JitRunner>> create(const std::vector<uint8_t> &bytes,
                                                          uint64_t address,
                                                          const ModuleSteps &steps = {});

  /// Lifts the function at `entry` of `image` and, transitively, every function it calls
  /// (real LLVM calls between them), verifies the module and compiles it.
  static llvm::Expected<std::unique_ptr<JitRunner>> createWithCallees(const Image &image,
                                                                     uint64_t entry);

  /// Runs the lifted function on `state` (addresses are host addresses) until it returns.
  StateRun runOnState(HoistState &state);

  /// Runs from `in`. The result is the State at the first control-transfer intrinsic, which
  /// is where the native run reaches its exit stub, or the State the function returned with
  /// (a `ret`); __hoist_trap makes it a Fault and __hoist_unsupported an Unsupported.
  bool run(const CpuState &in, RunResult &out, std::string &error);

  /// The lifted module as text and the lifter's diagnostics, for failure reports.
  const std::string &ir() const { return ir_; }
  const std::string &diagnostics() const { return diagnostics_; }

private:
  JitRunner() = default;
  static llvm::Expected<std::unique_ptr<JitRunner>> lift(const Image &image, uint64_t entry,
                                                        bool withCallees,
                                                        const ModuleSteps &steps);

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  void (*function_)(HoistState *, void *) = nullptr;
  std::string ir_;
  std::string diagnostics_;
};

} // namespace hoist::test
