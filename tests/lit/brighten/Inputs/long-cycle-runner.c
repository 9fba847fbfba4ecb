// Runs long-cycle.s's step1 brightened (long-cycle.test).
#include <stdio.h>

long step1(long n);

int main(void) {
  printf("%ld %ld %ld\n", step1(0), step1(1), step1(7));
  return 0;
}
