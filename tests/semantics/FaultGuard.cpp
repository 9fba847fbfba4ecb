#include "FaultGuard.h"

#include <array>
#include <cpuid.h>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <ucontext.h>

namespace hoist::test {
namespace {

constexpr int GuardedSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};

sigjmp_buf *activeJump = nullptr;
Fault lastFault;

/// Where AVX-512's components (5: opmask, 6: ZMM_Hi256, 7: Hi16_ZMM) sit in the signal frame's
/// standard-format xsave image, as CPUID leaf 0DH says (the offsets are the processor's, not
/// fixed); 0 for a component the processor lacks. Read once, before any signal arrives.
const std::array<unsigned, 8> Avx512Offsets = [] {
  std::array<unsigned, 8> at{};
  for (unsigned component : {5u, 6u, 7u}) {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_count(0xd, component, &eax, &ebx, &ecx, &edx) && eax)
      at[component] = ebx;
  }
  return at;
}();

void captureFpState(const ucontext_t *context, Fault &fault) {
  const auto *image = reinterpret_cast<const uint8_t *>(context->uc_mcontext.fpregs);
  std::memset(fault.ymmHigh, 0, sizeof fault.ymmHigh);
  std::memset(fault.zmmHigh, 0, sizeof fault.zmmHigh);
  std::memset(fault.zmm16, 0, sizeof fault.zmm16);
  std::memset(fault.k, 0, sizeof fault.k);
  if (!image)
    return;
  std::memcpy(fault.fxsave, image, 512);
  // The kernel marks an xsave frame in the fxsave area's software-reserved bytes; the AVX
  // state (the upper halves) is at its standard offset, present when XSTATE_BV says so and
  // zero (its initial state) otherwise. See Linux's arch/x86/include/uapi/asm/sigcontext.h.
  constexpr unsigned SwReservedOffset = 464, XstateBvOffset = 512, AvxOffset = 576;
  constexpr uint32_t XstateMagic1 = 0x46505853;
  uint32_t magic;
  std::memcpy(&magic, image + SwReservedOffset, 4);
  if (magic != XstateMagic1)
    return;
  uint64_t present;
  std::memcpy(&present, image + XstateBvOffset, 8);
  if (present & (1u << 2))
    std::memcpy(fault.ymmHigh, image + AvxOffset, sizeof fault.ymmHigh);
  if (present & (1u << 5) && Avx512Offsets[5])
    std::memcpy(fault.k, image + Avx512Offsets[5], sizeof fault.k);
  if (present & (1u << 6) && Avx512Offsets[6])
    std::memcpy(fault.zmmHigh, image + Avx512Offsets[6], sizeof fault.zmmHigh);
  if (present & (1u << 7) && Avx512Offsets[7])
    std::memcpy(fault.zmm16, image + Avx512Offsets[7], sizeof fault.zmm16);
}

void onSignal(int signal, siginfo_t *info, void *context) {
  if (!activeJump) {
    // Not inside a guarded run: a bug of the harness itself. Crash as if unguarded.
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  const greg_t *regs = static_cast<ucontext_t *>(context)->uc_mcontext.gregs;
  static constexpr int GprSlots[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
                                       REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                       REG_R12, REG_R13, REG_R14, REG_R15};
  lastFault.signal = signal;
  lastFault.address = reinterpret_cast<uint64_t>(info->si_addr);
  for (unsigned i = 0; i < 16; ++i)
    lastFault.gpr[i] = static_cast<uint64_t>(regs[GprSlots[i]]);
  lastFault.rip = static_cast<uint64_t>(regs[REG_RIP]);
  lastFault.rflags = static_cast<uint64_t>(regs[REG_EFL]);
  captureFpState(static_cast<ucontext_t *>(context), lastFault);
  sigjmp_buf *jump = activeJump;
  activeJump = nullptr;
  siglongjmp(*jump, 1);
}

} // namespace

FaultGuard &FaultGuard::instance() {
  static FaultGuard guard;
  return guard;
}

FaultGuard::FaultGuard() {
  // Static storage, not the heap: the stack lives as long as the process, and only the kernel
  // holds its address, so LeakSanitizer would report a heap block as a leak at exit.
  alignas(16) static char altStack[64 * 1024];
  stack_t alt{};
  alt.ss_sp = altStack;
  alt.ss_size = sizeof altStack;
  sigaltstack(&alt, nullptr);
  struct sigaction action {};
  action.sa_sigaction = onSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int signal : GuardedSignals)
    sigaction(signal, &action, nullptr);
}

bool FaultGuard::run(void (*body)(void *), void *argument, Fault &fault) {
  sigjmp_buf jump;
  if (sigsetjmp(jump, 0)) {
    fault = lastFault;
    return false;
  }
  activeJump = &jump;
  body(argument);
  activeJump = nullptr;
  return true;
}

const char *signalName(int signal) {
  switch (signal) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGTRAP:
    return "SIGTRAP";
  default:
    return "signal";
  }
}

} // namespace hoist::test
