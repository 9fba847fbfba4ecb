/* The bundled example: small functions of the shapes compilers emit everywhere. */
#include <stdio.h>
#include <stdlib.h>

int add3(int a, int b, int c) { return a + b + c; }

long sum_to(long n) {
  long total = 0;
  for (long i = 1; i <= n; ++i)
    total += i;
  return total;
}

int classify(int x) {
  if (x < 0)
    return -1;
  if (x == 0)
    return 0;
  return x > 100 ? 2 : 1;
}

unsigned checksum(const unsigned char *data, unsigned long size) {
  unsigned hash = 2166136261u;
  for (unsigned long i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 16777619u;
  return hash;
}

/* Recursion: lifted, it calls itself as an LLVM function. */
long fib(long n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(int argc, char **argv) {
  long n = argc > 1 ? strtol(argv[1], 0, 10) : 10;
  printf("add3=%d sum_to=%ld classify=%d checksum=%08x fib=%ld\n", add3(1, 2, (int)n),
         sum_to(n), classify((int)n), checksum((const unsigned char *)"hoist", 5), fib(n % 30));
  return 0;
}
