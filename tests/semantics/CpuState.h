// The part of the CPU state the differential harness controls and compares, and how a run ended.
#pragma once

#include <cstdint>

namespace hoist::test {

struct CpuState {
  uint64_t gpr[16];   ///< encoding order: rax rcx rdx rbx rsp rbp rsi rdi r8 ... r15
  uint64_t rip;
  uint8_t cf, pf, af, zf, sf, df, of;
};

enum class Outcome {
  Exit,        ///< reached an exit stub (native) or a control-transfer intrinsic (lifted)
  Fault,       ///< a CPU exception (native signal) or __hoist_trap (lifted)
  HostCrash,   ///< the lifted code itself crashed the host (a wrong address, say)
};

struct RunResult {
  Outcome outcome = Outcome::Exit;
  CpuState state{};         ///< at the exit, or at the faulting instruction
  int signal = 0;           ///< Fault (native) and HostCrash: the signal number
  uint64_t faultAddress = 0;   ///< SIGSEGV/SIGBUS: the address accessed
};

const char *outcomeName(Outcome outcome);

} // namespace hoist::test
