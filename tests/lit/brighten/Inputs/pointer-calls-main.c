#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct pair { long first, second; };
int apply(int (*function)(int), int value);
int run_operation(unsigned index, int value);
long apply8(long (*function)(long, long, long, long, long, long, long, long), long x);
double apply_double(double (*function)(double, double), double x);
long pair_difference(struct pair (*function)(long), long x);
long forward(long (*hook)(void));
extern long (*hook)(long);
long tail_call(long x);
long call_twice(long (*function)(long), long x);
void sort_numbers(int *numbers, size_t count);
long tail_call7(long (*function)(long, long, long, long, long, long, long), long a, long b,
                long c, long d, long e, long f);

static int square(int value) { return value * value; }
static long weigh(long a, long b, long c, long d, long e, long f, long g, long h) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
static double scale(double x, double by) { return x * by + 1.0; }
static struct pair split(long x) { return (struct pair){x * 3, x}; }
static long seven(void) { return 7; }
static long negate(long x) { return -x; }
static long weigh7(long a, long b, long c, long d, long e, long f, long g) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g;
}
static double half(void) { return 0.5; }

int main(int argc, char **argv) {
  printf("apply %d\n", apply(square, 7));
  printf("apply8 %ld\n", apply8(weigh, 100));
  printf("double %.2f\n", apply_double(scale, 3.0));
  printf("pair %ld\n", pair_difference(split, 21));
  printf("increment %d\n", run_operation(0, 41));
  /* forward hands on RAX or XMM0, whichever its hook returns in. */
  printf("forward %ld\n", forward(seven));
  double (*forward_double)(double (*)(void)) = (double (*)(double (*)(void)))forward;
  printf("forward %.1f\n", forward_double(half));
  hook = negate;
  printf("tail %ld\n", tail_call(41));
  printf("tail7 %ld\n", tail_call7(weigh7, 1, 2, 3, 4, 5, 6));
  printf("twice %ld\n", call_twice(negate, 5));
  fflush(stdout);
  /* Each argument runs what the recompiled program may lack: the function the table holds
     at 1, qsort's comparator. */
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "decrement") == 0)
      printf("decrement %d\n", run_operation(1, 41));
    if (strcmp(argv[i], "sort") == 0) {
      int numbers[] = {5, 3, 9, 1, 7};
      sort_numbers(numbers, 5);
      printf("sorted %d %d %d %d %d\n", numbers[0], numbers[1], numbers[2], numbers[3],
             numbers[4]);
    }
    fflush(stdout);
  }
  return 0;
}
