/* What a translated program must do as the original does: callbacks from libc (qsort,
 * bsearch, atexit, constructors and destructors), calls through function pointers (to the
 * program's functions and to libc's), a switch compiled to a jump table, globals, COPY-
 * relocated libc variables (stdout, optind, optarg), variadic calls with many arguments and
 * doubles, recursion, struct arguments on the stack, and the exit status. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int counter = 7;
static int constructed;
static const char *names[] = {"zero", "one", "two", "three", "four", "five", "six", "seven"};

__attribute__((constructor)) static void construct(void) { constructed = 1234; }
__attribute__((destructor)) static void destruct(void) { printf("destructor %d\n", counter); }

static int byValue(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static int byName(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void atExit1(void) { printf("atexit 1 counter=%d\n", counter); }
static void atExit2(void) { printf("atexit 2\n"); }

__attribute__((noinline)) static const char *classify(int value) {
  switch (value) {
  case 0: return "none";
  case 1: return "one";
  case 2: return "pair";
  case 3: return "triple";
  case 4: return "quad";
  case 5: return "five";
  case 6: return "six";
  case 7: return "seven";
  default: return "many";
  }
}

static long fibonacci(int n) { return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2); }

struct Big { long a, b, c, d; double e; };
__attribute__((noinline)) static double sumBig(int x0, int x1, int x2, int x3, int x4, int x5,
                                               struct Big big, long tail) {
  return x0 + x1 + x2 + x3 + x4 + x5 + big.a + big.b + big.c + big.d + big.e + tail;
}

static int sum(int count, ...) {
  va_list args;
  va_start(args, count);
  int total = 0;
  for (int i = 0; i < count; ++i)
    total += va_arg(args, int);
  va_end(args);
  return total;
}

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static int (*operations[])(int) = {twice, square};

int main(int argc, char **argv) {
  int verbose = 0, option;
  const char *label = "none";
  while ((option = getopt(argc, argv, "vl:")) != -1) {
    if (option == 'v')
      verbose = 1;
    else if (option == 'l')
      label = optarg;
  }
  printf("constructed=%d verbose=%d label=%s optind=%d rest=%d\n", constructed, verbose, label,
         optind, argc - optind);
  atexit(atExit2);
  atexit(atExit1);

  int values[] = {42, -3, 17, 8, 99, 0, -50, 23, 5, 61};
  qsort(values, 10, sizeof values[0], byValue);
  for (int i = 0; i < 10; ++i)
    printf("%d ", values[i]);
  int key = 23;
  int *found = bsearch(&key, values, 10, sizeof values[0], byValue);
  printf("\nfound %d at %td\n", key, found ? found - values : -1);

  const char *sorted[8];
  memcpy(sorted, names, sizeof sorted);
  qsort(sorted, 8, sizeof sorted[0], byName);
  for (int i = 0; i < 8; ++i)
    fprintf(stdout, "%s%c", sorted[i], i == 7 ? '\n' : ',');

  for (int i = 0; i < 10; ++i)
    printf("%s ", classify((i * 7 + argc) % 10));
  printf("\nfib(20)=%ld\n", fibonacci(20));

  struct Big big = {1, 2, 3, 4, 0.5};
  printf("sumBig=%.2f\n", sumBig(1, 2, 3, 4, 5, 6, big, 100));
  printf("sum=%d\n", sum(9, 1, 2, 3, 4, 5, 6, 7, 8, 9));
  printf("%d %s %d %s %.3f %d %s %c %ld %x %s %e\n", 1, "two", 3, "four", 5.0, 6, "seven", '8',
         9L, 10, "eleven", 12.0);

  int (*put)(const char *) = puts;
  put("through a pointer to puts");
  int result = 3;
  for (int i = 0; i < 4; ++i)
    result = operations[(result + i) & 1](result) % 1000;
  printf("operations=%d\n", result);

  char buffer[64];
  snprintf(buffer, sizeof buffer, "%s-%d", names[argc & 7], counter);
  printf("buffer=%s len=%zu\n", buffer, strlen(buffer));
  counter += 1000;
  return 3 + argc;
}
