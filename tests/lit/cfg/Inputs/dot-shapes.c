/* One of each control transfer `hoist cfg --dot` draws (tests/lit/cfg/dot.test): a jump table,
   conditional branches, calls, a tail call and an indirect jmp nothing resolves. */
__attribute__((noinline)) int act7(int op, int a) {
  switch (op) {
  case 0: return a * 7;
  case 1: return a | 0x30;
  case 2: return a % 5;
  case 3: return a >> 3;
  case 4: return a & 0xf0;
  case 5: return ~a;
  case 6: return a - 100;
  default: return a;
  }
}

/* A jmp through a function pointer the caller passes: unresolved. */
__attribute__((noinline)) int run(int (*handler)(int), int x) { return handler(x + 1); }

__attribute__((noinline)) int twice(int x) { return act7(x, 5) + act7(x + 1, x); }

__attribute__((noinline)) int next_of(int x) { return x + 1; }

/* A tail call at -O2: jmp next_of. */
__attribute__((noinline)) int forward(int x) { return next_of(x * 3); }

int main(int argc, char **argv) {
  (void)argv;
  return twice(argc) + run(next_of, argc) + forward(argc) > 0 ? 0 : 1;
}
