/* The exceptions a lifted __hoist_trap stands for (State.EXCEPTION), by their vector numbers
 * (SDM vol. 3, 6.3.1), and the signal Linux delivers to a user process for each. C, so that
 * the translation runtime and the C++ harnesses share it. */
#ifndef HOIST_EXCEPTION_H
#define HOIST_EXCEPTION_H

#include <signal.h>

enum HoistException {
  HOIST_EXCEPTION_DE = 0,  /* divide error: div/idiv by zero or a quotient too large */
  HOIST_EXCEPTION_BP = 3,  /* breakpoint: int3 */
  HOIST_EXCEPTION_BR = 5,  /* bound range: bound, which 64-bit mode does not have (#UD) */
  HOIST_EXCEPTION_UD = 6,  /* invalid opcode: ud2, bytes that decode to no instruction */
  HOIST_EXCEPTION_GP = 13, /* general protection: misaligned SSE operands, fxsave/xsave areas
                              and cmpxchg16b, reserved MXCSR bits, hlt and bad selectors in
                              user mode */
};

/* The signal of the kernel's handler for `vector` (arch/x86/kernel/traps.c): SIGFPE for #DE,
 * SIGTRAP for #BP, SIGSEGV for #BR and #GP, SIGILL for #UD; SIGSEGV for any other. */
static inline int hoist_exception_signal(unsigned vector) {
  switch (vector) {
  case HOIST_EXCEPTION_DE:
    return SIGFPE;
  case HOIST_EXCEPTION_BP:
    return SIGTRAP;
  case HOIST_EXCEPTION_UD:
    return SIGILL;
  default:
    return SIGSEGV;
  }
}

#endif
