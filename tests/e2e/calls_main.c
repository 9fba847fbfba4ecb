/* Makes the lifted binary an ordinary program; the test never runs it natively. */
#include <stdio.h>
#include <stdlib.h>

#include "calls.h"

int main(int argc, char **argv) {
  long n = argc > 1 ? strtol(argv[1], 0, 10) : 10;
  long values[4] = {n, 2, 3, 4};
  printf("%ld %ld %ld %d %ld\n", fib(n), sum_array(values, 4), sum_of_squares(n), is_even(n),
         weighted(n, 1, 2, 3));
  return 0;
}
