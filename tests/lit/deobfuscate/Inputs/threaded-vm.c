// A threaded interpreter: its handler table holds code addresses, which a PIE's file has as
// zeros and R_X86_64_RELATIVE relocations fill at load time (pie-pointer-table.test).
#include <stdio.h>
static const unsigned char code[] = {1, 5, 2, 3, 1, 7, 0};
__attribute__((noinline)) long threaded(long x) {
  static void *const handlers[] = {&&op_ret, &&op_add, &&op_mul, &&op_sub};
  const unsigned char *pc = code;
  long acc = x;
  goto *handlers[*pc++];
op_add: acc += *pc++; goto *handlers[*pc++];
op_mul: acc *= *pc++; goto *handlers[*pc++];
op_sub: acc -= *pc++; goto *handlers[*pc++];
op_ret: return acc;
}

// A real read of .data.rel.ro: pointers the loader writes from R_X86_64_RELATIVE relocations.
static const char *const names[] = {"even", "odd"};
__attribute__((noinline)) const char *parity_name(long x) { return names[x & 1]; }

int main(int argc, char **argv) { printf("%ld %s\n", threaded(argc), parity_name(argc)); return 0; }
