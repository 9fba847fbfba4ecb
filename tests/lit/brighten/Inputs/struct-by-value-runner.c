// Calls the brightened score and compute through their C prototypes.
#include <stdio.h>

struct wide { long a, b, c, d, e, f, g, h, i, j; };
struct narrow { long x, y, z; int w; };
long score(const char *tag, struct wide p, struct narrow q, long extra);
long compute(long seed);

int main(void) {
  struct wide p = {1, -2, 3, -4, 5, -6, 7, -8, 9, -10};
  struct narrow q = {100, 200, 300, 400};
  printf("%ld %ld\n", score("abc", p, q, 5), compute(9));
  long total = 0;
  for (long seed = 1; seed < 50; seed += 7)
    total += compute(seed);
  printf("%ld\n", total);
  return 0;
}
