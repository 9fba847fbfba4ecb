// The part of the CPU state the differential harness controls and compares, and how a run ended.
#pragma once

#include <cstdint>

namespace hoist::test {

/// The SIMD and x87 state, as fxsave keeps it: the x87 stack relative to its top (st[0] is
/// ST(0)), the tag word abridged to one "valid" bit per physical register.
struct FpState {
  uint64_t ymm[16][4];   ///< ymm[i][0..1] is xmm i
  uint32_t mxcsr;
  uint16_t fcw, fsw;     ///< fsw bits 11..13 are TOP
  uint8_t ftw;           ///< bit j: physical register j is valid
  uint8_t st[8][10];     ///< x86 80-bit extended values, little-endian
  // AVX-512, as State keeps it: loaded and saved natively only when `avx512` is set (an
  // AVX-512 form on a host that has it); zero otherwise, in both runs.
  bool avx512;
  uint64_t zmmHigh[16][4];   ///< bits 256..511 of zmm0-15
  uint64_t zmm16[16][8];     ///< zmm16-31
  uint64_t k[8];             ///< k0-k7
};

struct CpuState {
  uint64_t gpr[16];   ///< encoding order: rax rcx rdx rbx rsp rbp rsi rdi r8 ... r15
  uint64_t rip;
  uint8_t cf, pf, af, zf, sf, df, of;
  FpState fp;
};

/// The 512-byte fxsave/fxrstor image of `fp` and back (SDM vol. 1, 10.5.1).
void toFxsave(const FpState &fp, uint8_t image[512]);
void fromFxsave(const uint8_t image[512], FpState &fp);

enum class Outcome {
  Exit,        ///< reached an exit stub (native) or a control-transfer intrinsic (lifted)
  Fault,       ///< a CPU exception (native signal) or __hoist_trap (lifted)
  HostCrash,   ///< the lifted code itself crashed the host (a wrong address, say)
  Unsupported, ///< (lifted) left through __hoist_unsupported, handing the instruction over
  /// (native) ended neither at an exit stub nor with a fault of the tested code: a fault in
  /// the harness's own entry, exit stubs or exit. Says nothing about the lifter; never compared.
  HarnessError,
};

struct RunResult {
  Outcome outcome = Outcome::Exit;
  CpuState state{};         ///< at the exit, or at the faulting instruction
  /// Fault and HostCrash: the signal number; for a lifted Fault, the signal of the exception
  /// State.EXCEPTION names (include/hoist/Exception.h)
  int signal = 0;
  uint64_t faultAddress = 0;   ///< SIGSEGV/SIGBUS: the address accessed
};

const char *outcomeName(Outcome outcome);

} // namespace hoist::test
