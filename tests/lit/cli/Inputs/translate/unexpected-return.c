/* A function that returns two bytes past its call site (over a 2-byte nop): natively the
 * program goes on; a translation ends with exit 70 naming both addresses
 * (lib/Translate/UnexpectedReturns.h). */
#include <stdio.h>

__asm__(".text\n.globl skip_two\n.type skip_two, @function\nskip_two:\n"
        "  addq $2, (%rsp)\n  ret\n.size skip_two, .-skip_two\n");

int main(void) {
  puts("before");
  fflush(stdout);
  __asm__ volatile("call skip_two\n  .byte 0x66, 0x90\n"
                   ::: "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "memory",
                   "cc");
  puts("after");
  return 0;
}
