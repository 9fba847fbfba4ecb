#include <error.h>
#include <stdio.h>
#include <stdlib.h>
/* A program function that never returns (gnulib's xalloc_die, coreutils' usage): the call of
   it ends its caller's path, and gcc puts nothing after it. */
__attribute__((noinline)) void die(const char *what) {
  fprintf(stderr, "fatal: %s\n", what);
  exit(3);
}
__attribute__((noinline)) void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p)
    die("memory exhausted");
  return p;
}
__attribute__((noinline)) long checked_div(long a, long b) {
  if (b == 0)
    die("division by zero");
  return a / b;
}
/* glibc's error() exits when its status is not zero: with _FORTIFY_SOURCE gcc knows it and puts
   nothing after the call. */
__attribute__((noinline)) long must_be_positive(long x) {
  if (x <= 0)
    error(2, 0, "not positive: %ld", x);
  return x * 2;
}
