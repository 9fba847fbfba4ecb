#include <stdio.h>
#include <stdlib.h>
long sum_array(long n);
long sum_alloca(long n);
int main(int argc, char **argv) {
  long n = atol(argv[1]);
  printf("%ld %ld\n", sum_array(n), sum_alloca(n / 8));
  return 0;
}
