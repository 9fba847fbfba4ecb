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

/* Keeps every callee-saved register busy across the recursive calls. Forty levels of it wrap
   around 64 bits, so the arithmetic is unsigned: wrapping is then defined in C (signed overflow
   is undefined, and UBSan stops the test binary on it). The results are the same. */
long weighted(long a, long b, long c, long d) {
  typedef unsigned long u64;
  if (a <= 0)
    return (long)((u64)b * 3 + (u64)c * 5 + (u64)d * 7);
  u64 x = (u64)a * 11 + b, y = (u64)b * 13 + c, z = (u64)c * 17 + d, w = (u64)d * 19 + a;
  long inner = weighted(a - 1, (long)y, (long)z, (long)w);
  return (long)(inner + x - y + z - w);
}
