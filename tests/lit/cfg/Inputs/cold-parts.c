// gcc -O2 moves the code that calls a cold function, or only leads to abort, out of its function
// into a part laid out in .text.unlikely (`work.cold`, `pick.cold`), entered by a jump.
#include <stdio.h>
#include <stdlib.h>

__attribute__((cold, noinline)) void report(int v, int i) {
  fprintf(stderr, "negative %d at %d\n", v, i);
}

// A part that jumps back into its parent's loop, in its parent's frame.
__attribute__((noinline)) int work(int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (p[i] < 0) {
      report(p[i], i);
      s -= p[i] * 3;
      continue;
    }
    s += p[i];
  }
  return s;
}

// A part entered by a conditional branch from a function without a frame.
__attribute__((noinline)) int pick(unsigned k) {
  if (k > 3)
    abort();
  return (int)k * 7;
}

int main(int argc, char **argv) {
  (void)argv;
  int v[4] = {1, -2, 3, argc};
  printf("%d %d\n", work(v, 4), pick((unsigned)argc));
  return 0;
}
