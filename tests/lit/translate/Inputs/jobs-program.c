// Many small functions that call each other directly, through a table and back from the C
// library (qsort), for translations compiled in partitions (`hoist translate -j N`): each
// partition calls what the others define. `mprotect`, a function of the program's own, has
// the name of a C library function the translation runtime calls at start: its lifted
// function must not stand in for the library's.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static long mprotect(long pages) { return pages * 4096 + 7; }

__attribute__((noinline)) static long fibonacci(long n) {
  return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
}

__attribute__((noinline)) static unsigned checksum(const char *text) {
  unsigned sum = 0;
  for (; *text; ++text)
    sum = sum * 31 + (unsigned char)*text;
  return sum;
}

__attribute__((noinline)) static long add(long a, long b) { return a + b; }
__attribute__((noinline)) static long subtract(long a, long b) { return a - b; }
__attribute__((noinline)) static long multiply(long a, long b) { return a * b; }
__attribute__((noinline)) static long power(long a, long b) {
  long result = 1;
  while (b-- > 0)
    result = multiply(result, a);
  return result;
}

static long (*const operations[])(long, long) = {add, subtract, multiply, power};

__attribute__((noinline)) static int descending(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x < y) - (x > y);
}

__attribute__((noinline)) static int isEven(unsigned n);
__attribute__((noinline)) static int isOdd(unsigned n) { return n == 0 ? 0 : isEven(n - 1); }
__attribute__((noinline)) static int isEven(unsigned n) { return n == 0 ? 1 : isOdd(n - 1); }

__attribute__((noinline)) static void reverse(char *text) {
  for (size_t i = 0, j = strlen(text); i + 1 < j; ++i, --j) {
    char c = text[i];
    text[i] = text[j - 1];
    text[j - 1] = c;
  }
}

int main(int argc, char **argv) {
  (void)argv;
  long values[8];
  for (int i = 0; i < 8; ++i)
    values[i] = operations[i % 4](fibonacci(i + 10 + argc), i + 2);
  qsort(values, 8, sizeof values[0], descending);
  for (int i = 0; i < 8; ++i)
    printf("%ld%c", values[i], i == 7 ? '\n' : ' ');
  char text[] = "partitioned translation";
  reverse(text);
  printf("%s %u\n", text, checksum(text));
  printf("mprotect %ld even %d odd %d\n", mprotect(argc + 2), isEven(100 + argc),
         isOdd(77 + argc));
  return (int)(fibonacci(15) % 7);
}
