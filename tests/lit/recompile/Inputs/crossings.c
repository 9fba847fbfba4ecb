/* Calls between brightened functions and functions that stay in State form, both ways, in a
 * recompiled program (docs/TRANSLATE.md, "Recompiled programs"). The functions that call
 * setjmp or longjmp stay in State form (the runtime implements them for lifted code); the
 * others are brightened, main too, which hands one of them to a brightened function. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf recovery;
int counter;                     /* written by both halves */
static char log_text[256];

/* Brightened: called from State form, directly and as qsort's comparator. */
__attribute__((noinline)) int compare_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  counter++;
  return (x > y) - (x < y);
}

__attribute__((noinline)) long sum(const int *values, int count) {
  long total = 0;
  for (int i = 0; i < count; ++i)
    total += values[i] * (i + 1);
  counter += 1000;
  return total;
}

__attribute__((noinline)) void note(const char *what, long value) {
  size_t used = strlen(log_text);
  snprintf(log_text + used, sizeof log_text - used, "%s=%ld;", what, value);
}

/* Brightened: calls through a pointer whatever it is given (a State-form function too). */
__attribute__((noinline)) long apply(long (*function)(long), long value) {
  long result = function(value);
  note("apply", result);
  return result;
}

__attribute__((noinline)) long twice(long value) { return 2 * value + counter % 7; }

/* State form: longjmps out of deep recursion. */
__attribute__((noinline)) static void descend(int depth) {
  if (depth == 0)
    longjmp(recovery, 42);
  descend(depth - 1);
}

__attribute__((noinline)) long guarded(long value) {
  note("guarded", value);   /* State form calls a brightened function */
  counter += 100;           /* and writes what brightened code reads */
  int code = setjmp(recovery);
  if (code != 0)
    return value + code;
  descend((int)(value % 5) + 3);
  return -1;
}

int main(int argc, char **argv) {
  int values[] = {9, -4, 17, 0, 3, 3, -11, 28, 5, 1};
  int count = sizeof values / sizeof values[0];
  (void)argv;
  qsort(values, count, sizeof values[0], compare_ints);
  for (int i = 0; i < count; ++i)
    printf("%d ", values[i]);
  printf("\n");
  long total = sum(values, count);
  printf("sum %ld counter %d\n", total, counter);
  long a = apply(twice, total);
  long b = apply(guarded, argc + 10);   /* brightened code calls a State-form function */
  printf("apply %ld %ld\n", a, b);
  note("counter", counter);
  printf("log %s\n", log_text);
  return (int)((a + b + counter) & 0x7f);
}
