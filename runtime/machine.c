/* The runtime intrinsics for what only the machine answers (lib/Semantics/System.cpp: each
 * `__hoist_<mnemonic>` reads its inputs from State and writes what the instruction writes),
 * faults, and instructions without semantics. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "Runtime.h"

#include "hoist/Exception.h"

#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>

void __hoist_cpuid(HoistState *state, void *memory, uint64_t address) {
  (void)memory, (void)address;
  uint32_t a, b, c, d;
  __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
                   : "a"((uint32_t)state->RAX), "c"((uint32_t)state->RCX));
  state->RAX = a, state->RBX = b, state->RCX = c, state->RDX = d;
}

void __hoist_rdtsc(HoistState *state, void *memory, uint64_t address) {
  (void)memory, (void)address;
  uint32_t low, high;
  __asm__ volatile("rdtsc" : "=a"(low), "=d"(high));
  state->RAX = low, state->RDX = high;
}

void __hoist_rdtscp(HoistState *state, void *memory, uint64_t address) {
  (void)memory, (void)address;
  uint32_t low, high, aux;
  __asm__ volatile("rdtscp" : "=a"(low), "=d"(high), "=c"(aux));
  state->RAX = low, state->RDX = high, state->RCX = aux;
}

void __hoist_xgetbv(HoistState *state, void *memory, uint64_t address) {
  (void)memory, (void)address;
  uint32_t low, high;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"((uint32_t)state->RCX));
  state->RAX = low, state->RDX = high;
}

/* RCX and R11 get what the kernel leaves in them: the return address and RFLAGS. */
void __hoist_syscall(HoistState *state, void *memory, uint64_t address) {
  (void)memory;
  /* A thread made by the program itself (clone with CLONE_VM, clone3) would run on lifted
   * code's native stack, shared with its parent. A fork-like clone is as fork. */
  if ((state->RAX == SYS_clone && (state->RDI & CLONE_VM)) || state->RAX == SYS_clone3)
    hoist_fatal("%s: the clone system call at %#lx makes a thread of the program's own, which "
                "a translated program does not support (pthread_create's threads it does)",
                hoist_program.path, (unsigned long)address);
  uint64_t result;
  register uint64_t r10 __asm__("r10") = state->R10;
  register uint64_t r8 __asm__("r8") = state->R8;
  register uint64_t r9 __asm__("r9") = state->R9;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(state->RAX), "D"(state->RDI), "S"(state->RSI), "d"(state->RDX),
                     "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  state->RAX = result;
}

/* The signal the kernel sends for the fault lifted code stands for: the exception the lift
 * recorded in State.EXCEPTION (include/hoist/Exception.h), except that code the lift found
 * outside the program's executable segments would not have run at all (SIGSEGV). */
static int faultSignal(const HoistState *state, uint64_t address) {
  if (!hoist_in_executable_segment(address) &&
      !(state->EXCEPTION == HOIST_EXCEPTION_BP && hoist_in_executable_segment(address - 1)))
    return SIGSEGV;
  return hoist_exception_signal(state->EXCEPTION);
}

/* A fault the original program would take: the same signal. The program's handler for it runs
 * (it may longjmp out or end the program); if it returns, where the original would fault
 * again and again, the default action ends the program. */
void __hoist_trap(HoistState *state, void *memory, uint64_t address) {
  (void)memory;
  int signal = faultSignal(state, address);
  if (hoist_guest_handles(signal))
    raise(signal);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigaction(signal, &action, 0);
  raise(signal);
  hoist_fatal("%s: fault at %#lx", hoist_program.path, (unsigned long)address);
}

void __hoist_unsupported(HoistState *state, void *memory, uint64_t address) {
  (void)state, (void)memory;
  hoist_fatal("%s: the instruction at %#lx has no semantics in Hoist", hoist_program.path,
              (unsigned long)address);
}

#define HOIST_NOT_TRANSLATED(mnemonic)                                                        \
  void __hoist_##mnemonic(HoistState *state, void *memory, uint64_t address) {               \
    (void)state, (void)memory;                                                                \
    hoist_fatal("%s: %s at %#lx is not supported by translated programs",                    \
                hoist_program.path, #mnemonic, (unsigned long)address);                      \
  }
HOIST_NOT_TRANSLATED(rdrand)
HOIST_NOT_TRANSLATED(rdseed)
HOIST_NOT_TRANSLATED(rdpid)
HOIST_NOT_TRANSLATED(int)
