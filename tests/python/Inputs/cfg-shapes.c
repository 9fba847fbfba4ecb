/* The shapes of control flow test_hoist.py reads through the CFG bindings: a jump table
   (pick), a tail call (forward), a jump through writable memory that nothing resolves
   (through), a function that never returns (die). Built with gcc -O2. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noreturn)) void die(const char *why) {
  fprintf(stderr, "%s\n", why);
  exit(3);
}

__attribute__((noinline)) int pick(int x, int y) {
  switch (x) {
  case 0: return y * 3 + 1;
  case 1: return y ^ 77;
  case 2: return y << 4;
  case 3: return y / 7;
  case 4: return y % 13;
  case 5: return -y;
  case 6: return ~y + 9;
  default: die("out of range");
  }
}

__attribute__((noinline)) int forward(int x) { return pick(x + 1, x); }

int (*volatile hook)(int) = forward;
__attribute__((noinline)) int through(int x) { return hook(x); }

int main(int argc, char **argv) { return forward(argc) + through(argc); }
