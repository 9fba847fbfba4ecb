/* One fault a mode, chosen by argv[1]: the translated program must die of the signal the
 * original dies of (translate-fault-signals.test). Each fault is an instruction Hoist lifts as
 * __hoist_trap with the exception it stands for. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint8_t buffer[1024] __attribute__((aligned(64)));

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *mode = argv[1];
  /* Misaligned by one: a 16- or 64-byte aligned operand is expected. */
  void *misaligned = buffer + 1 + (argc > 2);
  volatile uint64_t zero = argc > 100;
  uint32_t reserved_mxcsr = 0x1f80u | 0x10000u;
  fflush(stdout);
  if (!strcmp(mode, "div")) { /* #DE */
    uint64_t quotient = 7, remainder = 0;
    __asm__ volatile("div %2" : "+a"(quotient), "+d"(remainder) : "r"((uint64_t)zero));
  } else if (!strcmp(mode, "ud2")) { /* #UD */
    __asm__ volatile("ud2");
  } else if (!strcmp(mode, "invalid")) { /* #UD: push es does not exist in 64-bit mode */
    __asm__ volatile(".byte 0x06");
  } else if (!strcmp(mode, "int3")) { /* #BP */
    __asm__ volatile("int3");
  } else if (!strcmp(mode, "hlt")) { /* #GP in user mode */
    __asm__ volatile("hlt");
  } else if (!strcmp(mode, "movaps")) { /* #GP: misaligned SSE operand */
    __asm__ volatile("movaps (%0), %%xmm0" : : "r"(misaligned) : "xmm0");
  } else if (!strcmp(mode, "cmpxchg16b")) { /* #GP: misaligned */
    __asm__ volatile("cmpxchg16b (%0)" : : "r"(misaligned) : "rax", "rdx", "rbx", "rcx", "memory");
  } else if (!strcmp(mode, "fxsave")) { /* #GP: misaligned area */
    __asm__ volatile("fxsave (%0)" : : "r"(misaligned) : "memory");
  } else if (!strcmp(mode, "ldmxcsr")) { /* #GP: a reserved MXCSR bit */
    __asm__ volatile("ldmxcsr %0" : : "m"(reserved_mxcsr));
  } else if (!strcmp(mode, "selector")) { /* #GP: a selector DS cannot take */
    uint16_t selector = 0x1234;
    __asm__ volatile("mov %0, %%ds" : : "r"(selector));
  } else {
    return 2;
  }
  puts("no fault");
  return 0;
}
