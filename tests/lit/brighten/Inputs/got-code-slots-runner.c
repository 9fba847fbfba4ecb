// Calls the brightened apply and pick, and the function pick hands out, which must be the
// brightened twice or thrice (the runner has no other).
#include <stdio.h>
typedef long (*op)(long);
op pick(int);
long apply(int, long);
int main(void) {
  printf("%ld %ld %ld %ld\n", apply(1, 5), apply(0, 5), pick(1)(7), pick(0)(7));
  return 0;
}
