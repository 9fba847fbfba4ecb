/* Functions that call each other: compiled into an ELF that Hoist lifts, and into the test
   itself, which compares the lifted run with the native call. */
#include "calls.h"

long fib(long n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

long sum_array(const long *values, long count) {
  return count == 0 ? 0 : values[0] + sum_array(values + 1, count - 1);
}

static long __attribute__((noinline)) square(long x) { return x * x; }

long sum_of_squares(long n) {
  long total = 0;
  for (long i = 1; i <= n; ++i)
    total += square(i);
  return total;
}

/* Mutual recursion; at -O2 each is a tail call (a jmp) to the other. */
int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

/* Keeps every callee-saved register busy across the recursive calls. */
long weighted(long a, long b, long c, long d) {
  if (a <= 0)
    return b * 3 + c * 5 + d * 7;
  long x = a * 11 + b, y = b * 13 + c, z = c * 17 + d, w = d * 19 + a;
  long inner = weighted(a - 1, y, z, w);
  return inner + x - y + z - w;
}
