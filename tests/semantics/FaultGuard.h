// Runs code that may fault (the instruction natively, or lifted code with a wrong address) and
// turns the signal into a result instead of a dead test process.
//
// The handlers run on an alternate signal stack, because the faulting code's RSP points into
// the test's stack pages, and leave with siglongjmp. SA_NODEFER keeps the signal unblocked in
// the handler, so the mask never changes and sigsetjmp need not save it (no syscall per run).
#pragma once

#include <cstdint>

namespace hoist::test {

struct Fault {
  int signal = 0;
  uint64_t address = 0;   ///< si_addr: the data address of SIGSEGV/SIGBUS
  // Registers at the fault, from the signal's ucontext.
  uint64_t gpr[16] = {};  ///< encoding order
  uint64_t rip = 0;
  uint64_t rflags = 0;
  // The SIMD and x87 state at the fault, from the signal frame's xsave image.
  uint8_t fxsave[512] = {};
  uint64_t ymmHigh[16][2] = {};   ///< bits 128..255 of each ymm register
  // AVX-512 state (zero when the frame holds none): as CpuState's FpState keeps it.
  uint64_t zmmHigh[16][4] = {};
  uint64_t zmm16[16][8] = {};
  uint64_t k[8] = {};
};

class FaultGuard {
public:
  /// The process-wide guard; installs the handlers on first use.
  static FaultGuard &instance();

  /// Calls `body(argument)`. False, with `fault` filled, when a signal arrived while it ran.
  bool run(void (*body)(void *), void *argument, Fault &fault);

private:
  FaultGuard();
};

const char *signalName(int signal);

} // namespace hoist::test
