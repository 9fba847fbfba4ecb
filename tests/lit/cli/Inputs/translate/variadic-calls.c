/* Calls of variadic library functions, for translate-variadic-calls.test: al tells the callee
 * how many vector registers carry arguments (AMD64 ABI 3.5.7), so a call with al = 0 needs no
 * vector register, one with doubles needs them, and one with more than eight doubles passes
 * the rest on the stack. And calls that never return (abort; error with
 * a nonzero status). */
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* al = 0: only integers and pointers (the second call is a tail jump). */
__attribute__((noinline)) void print_counts(const char *name, int count, long total) {
  printf("%s: %d of %ld\n", name, count, total);
  fprintf(stdout, "%s again: %d\n", name, count);
}

/* al = 2 and al = 1 (snprintf's result printed with al = 0). */
__attribute__((noinline)) void print_ratio(int a, int b) {
  double ratio = (double)a / b;
  printf("%d/%d = %.6f (inverse %.6f)\n", a, b, ratio, 1.0 / ratio);
  char text[64];
  int length = snprintf(text, sizeof text, "[%08.3f]", ratio * 100);
  printf("%s %d\n", text, length);
}

/* al = 8 and two more doubles on the stack, with integers between them. */
__attribute__((noinline)) void print_many(double base) {
  printf("%g %g %g %g %d %g %g %g %g %g %ld %g\n", base, base + 1, base + 2, base + 3, 4,
         base + 5, base + 6, base + 7, base + 8, base + 9, 10L, base + 11);
}

/* al from a register whose value the translation cannot know: printf("%d %f %f", count, a, b)
 * with al = count. */
__attribute__((naked, noinline)) int print_with_count(const char *format, double a, double b,
                                                     int count) {
  __asm__("mov %esi, %eax\n\t"
          "jmp printf@PLT");
}

/* Never returns: abort after the message. */
__attribute__((noinline)) void fail(const char *why) {
  fprintf(stderr, "failed: %s\n", why);
  abort();
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "abort") == 0)
    fail(argv[1]);
  if (argc > 1 && strcmp(argv[1], "error") == 0)
    error(argc, 0, "exits with status %d", argc);
  int scale = argc > 1 ? atoi(argv[1]) : 3;
  print_counts("lines", scale * 7, scale * 1000L + argc);
  print_ratio(scale * 22, 7);
  print_many(scale / 4.0);
  print_with_count("%d: %.2f %.2f\n", scale * 0.5, scale * 0.25, argc + 1);
  print_with_count("%d: %.2f %.2f\n", scale * 1.5, scale * 1.25, argc + 7);
  error(0, 0, "returns with status %d", 0);
  return 0;
}
