// System instructions (Zydis categories SYSTEM, INTERRUPT, MISC): the ones that fault on
// purpose (ud2, int3, hlt: compilers put them after calls that do not return and in assertion
// paths), and the ones only the machine can answer (cpuid, rdtsc, syscall, ...).
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

/// ud2 (#UD) and hlt (in user mode, #GP) fault: the CPU reports the instruction's own address.
LiftStatus liftFault(LiftContext &ctx, const Instr &instr) {
  HoistException exception =
      instr.mnemonic == ZYDIS_MNEMONIC_HLT ? HOIST_EXCEPTION_GP : HOIST_EXCEPTION_UD;
  ctx.control().trap(ctx.ir.getInt64(instr.address), exception);
  return LiftStatus::Lifted;
}

/// int3 raises #BP, a trap: the CPU reports the address after it (SDM vol. 3, 6.5).
LiftStatus liftBreakpoint(LiftContext &ctx, const Instr &instr) {
  ctx.control().trap(ctx.ir.getInt64(instr.next()), HOIST_EXCEPTION_BP);
  return LiftStatus::Lifted;
}

/// Instructions whose results come from the machine or the kernel: the lifted code calls
/// `__hoist_<mnemonic>`, which reads its inputs from State and writes the registers the
/// instruction writes (eax..edx for cpuid, edx:eax for rdtsc, rax/rcx/r11 for syscall, ...).
LiftStatus liftRuntime(LiftContext &ctx, const Instr &instr) {
  ctx.control().callRuntime(std::string("__hoist_") + instr.mnemonicName());
  return LiftStatus::Lifted;
}

/// int n (other than int3) enters the kernel; Linux user code does not use it for system
/// calls, so it is lifted as a runtime call like syscall.
LiftStatus liftInterrupt(LiftContext &ctx, const Instr &instr) {
  ctx.control().callRuntime("__hoist_int");
  return LiftStatus::Lifted;
}

} // namespace

void registerSystem(SemanticTable &table) {
  for (ZydisMnemonic runtime : {ZYDIS_MNEMONIC_CPUID, ZYDIS_MNEMONIC_RDTSC, ZYDIS_MNEMONIC_RDTSCP,
                                ZYDIS_MNEMONIC_XGETBV, ZYDIS_MNEMONIC_RDRAND,
                                ZYDIS_MNEMONIC_RDSEED, ZYDIS_MNEMONIC_SYSCALL,
                                ZYDIS_MNEMONIC_RDPID})
    table.add(runtime, liftRuntime);
  table.add(ZYDIS_MNEMONIC_INT, liftInterrupt);
  table.add(ZYDIS_MNEMONIC_UD2, liftFault);
  table.add(ZYDIS_MNEMONIC_HLT, liftFault);
  table.add(ZYDIS_MNEMONIC_INT3, liftBreakpoint);
}

} // namespace hoist
