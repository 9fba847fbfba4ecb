// Small VMs in the dispatch shapes of tests/deobfuscate/vmprotect.py, each running a guest
// program whose result is an affine function of x (vm-shapes.test checks it is all that is
// left). Opcodes and operands are plain: the point is the dispatch.
#include <stdio.h>

// Direct threading: the bytecode holds the handlers' addresses (labels as values) and is
// walked by a pointer, `goto **pc`. Const, so .rodata (non-PIE) or .data.rel.ro (PIE).
// acc = x; acc += 5; acc *= 3; acc += 7: x * 3 + 22.
__attribute__((noinline)) long threaded_const(long x) {
  static const void *const code[] = {&&op_add, (void *)5, &&op_mul, (void *)3,
                                     &&op_add, (void *)7, &&op_ret};
  const void *const *pc = code;
  long acc = x;
  goto **pc;
op_add: acc += (long)pc[1]; pc += 2; goto **pc;
op_mul: acc *= (long)pc[1]; pc += 2; goto **pc;
op_ret: return acc;
}

// The same in a writable array that no instruction writes (.data; `used` keeps gcc from
// moving it to read-only data), walked by an index, and a handler calling puts: the pointer
// gcc makes of the index stays in a callee-saved register, the base of reads only.
// (acc + 9) * 5, "five" printed between: x * 5 + 45.
__attribute__((noinline)) long threaded_data(long x) {
  static void *code[] __attribute__((used)) = {&&op_add, (void *)9, &&op_puts, &&op_mul,
                                               (void *)5, &&op_ret};
  unsigned long pc = 0;
  long acc = x;
  goto *code[pc];
op_add: acc += (long)code[pc + 1]; pc += 2; goto *code[pc];
op_mul: acc *= (long)code[pc + 1]; pc += 2; goto *code[pc];
op_puts: puts("five"); pc += 1; goto *code[pc];
op_ret: return acc;
}

// The same, but a handler hands the bytecode to a function that rewrites it: the reads stay
// symbolic, and the dispatch stays a jump the lift cannot resolve (with the reason).
__attribute__((noinline)) void patch(void **code) { code[1] = (void *)10; }
__attribute__((noinline)) long threaded_patched(long x) {
  static void *code[] __attribute__((used)) = {&&op_add, (void *)9, &&op_patch, &&op_ret};
  unsigned long pc = 0;
  long acc = x;
  goto *code[pc];
op_add: acc += (long)code[pc + 1]; pc += 2; goto *code[pc];
op_patch: patch(code); pc += 1; goto *code[pc];
op_ret: return acc;
}

// A switch dispatcher whose state is a stack array indexed by a register: the virtual PC,
// the accumulator and a virtual stack at vm[c + slot], c a register the compiler cannot fold.
// push x; push 4; add; push 7; mul; ret: (x + 4) * 7 = x * 7 + 28.
static const unsigned char context_code[] = {1, 4, 2, 1, 7, 3, 0};
__attribute__((noinline)) long context_vm(long x) {
  long vm[16];
  unsigned long c;
  __asm__("" : "=r"(c) : "0"(0UL));
  vm[c + 3] = 0;                    // the virtual PC
  vm[c + 9] = 1;                    // the virtual stack pointer (stack at vm[c + 10])
  vm[c + 10] = x;
  for (;;) {
    switch (context_code[vm[c + 3]]) {
    case 1: vm[c + 10 + vm[c + 9]++] = context_code[vm[c + 3] + 1]; vm[c + 3] += 2; break;
    case 2: --vm[c + 9]; vm[c + 10 + vm[c + 9] - 1] += vm[c + 10 + vm[c + 9]]; vm[c + 3] += 1; break;
    case 3: --vm[c + 9]; vm[c + 10 + vm[c + 9] - 1] *= vm[c + 10 + vm[c + 9]]; vm[c + 3] += 1; break;
    case 0: return vm[c + 10];
    default: __builtin_trap();
    }
  }
}

// Two VM levels: the outer VM's program is guard, run, return; the guard dispatches on the
// .bss global `armed`, which main sets before the call (the file's 0 is not what the call
// reads); the run handler is an inner VM: acc += 2; acc *= 9 (x * 9 + 18). Unarmed: -1.
long armed;
static const unsigned char outer_code[] = {7, 4, 8, 9, 6};
static const unsigned char inner_code[] = {1, 2, 2, 9, 0};
__attribute__((noinline)) long nested_vm(long x) {
  unsigned opc = 0;
  long acc = x;
  for (;;) {
    switch (outer_code[opc]) {
    case 7: opc = armed == 0x5eed ? opc + 2 : outer_code[opc + 1]; break;
    case 8: {
      unsigned pc = 0;
      for (;;) {
        switch (inner_code[pc]) {
        case 1: acc += inner_code[pc + 1]; pc += 2; break;
        case 2: acc *= inner_code[pc + 1]; pc += 2; break;
        case 0: goto inner_done;
        default: __builtin_trap();
        }
      }
    inner_done:
      opc += 1;
      break;
    }
    case 9: return acc;
    case 6: return -1;
    default: __builtin_trap();
    }
  }
}

int main(int argc, char **argv) {
  armed = 0x5eed;
  printf("%ld %ld %ld %ld %ld\n", threaded_const(argc), threaded_data(argc),
         threaded_patched(argc), context_vm(argc), nested_vm(argc));
  return 0;
}
