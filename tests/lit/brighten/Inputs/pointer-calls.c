/* Calls through code pointers brightening cannot resolve: callbacks the caller passes (a
   function of the recompiled program, outside the image), and a table in data of the
   program's own functions (original addresses, mapped to the brightened functions). */
struct pair { long first, second; };

static int increment(int value) { return value + 1; }
static int decrement(int value) { return value - 1; }
static int (*const operations[])(int) = {increment, decrement};

int apply(int (*function)(int), int value) { return function(value) * 10; }
int run_operation(unsigned index, int value) { return operations[index & 1](value) * 2; }
/* Eight integer arguments: the last two on the stack. */
long apply8(long (*function)(long, long, long, long, long, long, long, long), long x) {
  return function(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7) + 1;
}
double apply_double(double (*function)(double, double), double x) {
  return function(x, 0.5) * 2.0;
}
/* A result in RAX and RDX. */
long pair_difference(struct pair (*function)(long), long x) {
  struct pair result = function(x);
  return result.first - result.second;
}
/* Returns whatever the hook returns: in RAX or XMM0, as its unknown prototype says. Not a
   tail call: it counts the calls after. */
int forwarded;
long forward(long (*hook)(void)) {
  long result = hook();
  ++forwarded;
  return result;
}
/* Tail calls through a pointer: `jmp *hook(%rip)`; and one whose seventh argument gcc writes
   into the caller's own stack argument slot before `jmp *%rax`. */
long (*hook)(long);
long tail_call(long x) { return hook(x + 1); }
long tail_call7(long (*function)(long, long, long, long, long, long, long), long a, long b,
                long c, long d, long e, long f) {
  return function(a, b, c, d, e, f, a);
}
/* Keeps the pointer and x in callee-saved registers across the calls: their saved values lie
   in the frame slots the calls pass, and are no arguments of either. */
long call_twice(long (*function)(long), long x) {
  long first = function(x);
  return first + function(first + x);
}
/* Hands a function of its own to the library, which calls it back. */
#include <stdlib.h>
static int compare_ints(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}
void sort_numbers(int *numbers, size_t count) {
  qsort(numbers, count, sizeof *numbers, compare_ints);
}
