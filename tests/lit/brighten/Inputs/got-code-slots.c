// Functions whose addresses a PIE takes through GOT slots the loader fills with
// R_X86_64_RELATIVE relocations (`mov twice@GOTPCREL(%rip), %rax`, kept by --no-relax):
// got-code-slots.test. twice and thrice are in got-code-slots-ops.c, another unit.
#include <stdio.h>
extern long twice(long);
extern long thrice(long);
typedef long (*op)(long);
__attribute__((noinline)) op pick(int which) { return which ? twice : thrice; }
__attribute__((noinline)) long apply(int which, long x) { return pick(which)(x) + 1; }
int main(int argc, char **argv) { printf("%ld\n", apply(argc > 1, 5)); return 0; }
