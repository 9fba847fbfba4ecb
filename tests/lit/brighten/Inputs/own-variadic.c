// A program's own variadic functions: one hands its va_list to vprintf (stack arguments
// included), one to vfprintf and never returns, one walks integer arguments with va_arg into
// the caller's stack, one walks doubles past XMM7. The exported wrappers call them as the
// program does.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int quiet;

__attribute__((noipa)) static void note(const char *format, ...) {
  va_list arguments;
  if (quiet)
    return;
  va_start(arguments, format);
  vprintf(format, arguments);
  va_end(arguments);
}

__attribute__((noipa)) static long total(int count, ...) {
  va_list arguments;
  long sum = 0;
  va_start(arguments, count);
  for (int i = 0; i < count; i++)
    sum += va_arg(arguments, long);
  va_end(arguments);
  return sum;
}

__attribute__((noipa)) static double average(int count, ...) {
  va_list arguments;
  double sum = 0;
  va_start(arguments, count);
  for (int i = 0; i < count; i++)
    sum += va_arg(arguments, double);
  va_end(arguments);
  return sum / count;
}

// Never returns: its caller area must outlive the return that no path reaches.
__attribute__((noipa, noreturn)) static void die(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vfprintf(stdout, format, arguments);
  va_end(arguments);
  exit(3);
}

// Called by C callers as the variadic function it is.
__attribute__((noipa)) void shout(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vfprintf(stdout, format, arguments);
  va_end(arguments);
}

long run_total(long a) {
  return total(3, a, a, 2L) + total(9, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, a);
}

double run_average(double x) {
  return average(10, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, x);
}

void run_note(const char *s, int k, double d) {
  note("%s %d %.2f %d %d %d %d %d %s\n", s, k, d, 4, 5, 6, 7, 8, "end");
}

// Its second argument reaches note unchanged, in the register it came in.
__attribute__((noipa)) void relay(int unused, const char *s) {
  (void)unused;
  note("relayed %s\n", s);
}

void run_die(int code) {
  die("fatal %d %d %d %d %d %d %s %.1f\n", code, 2, 3, 4, 5, 6, "seven", 8.5);
}
