// Structs passed by value in memory: a callee reads them from its caller's stack, past the
// first eight slots (issue 26; docs/BRIGHTEN.md, "Local frame").
#include <stdio.h>
#include <string.h>

struct wide { long a, b, c, d, e, f, g, h, i, j; };   // 80 bytes: ten stack slots
struct narrow { long x, y, z; int w; };                // 32 bytes: four slots

__attribute__((noinline)) long score(const char *tag, struct wide p, struct narrow q,
                                     long extra) {
  long sum = (long)strlen(tag) * 1000003;
  sum += p.a - 2 * p.b + 3 * p.c - 5 * p.d + 7 * p.e - 11 * p.f + 13 * p.g - 17 * p.h +
         19 * p.i - 23 * p.j;
  sum ^= q.x * 29 + q.y * 31 - q.z * 37 + q.w * 41;
  return sum + extra * 43;
}

__attribute__((noinline)) long compute(long seed) {
  struct wide p = {seed, seed + 1, seed * 3, seed - 7, seed ^ 5, seed * seed, 11, 12, seed / 3,
                   seed % 7};
  struct narrow q = {seed << 2, seed >> 1, -seed, (int)seed * 9};
  return score("tag", p, q, seed * 1009) + score("longer tag", p, q, 3);
}

// Called through a pointer: a brightened call through a pointer passes eight stack slots, so
// this one stays as it is (its address is taken).
__attribute__((noinline)) long hooked(const char *tag, struct wide p, struct narrow q,
                                      long extra) {
  return score(tag, p, q, extra) - p.j * q.w;
}
long (*volatile hook)(const char *, struct wide, struct narrow, long) = hooked;

int main(int argc, char **argv) {
  (void)argv;
  long total = 0;
  for (long seed = argc; seed < 50; seed += 7)
    total += compute(seed);
  struct wide p = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  struct narrow q = {11, 12, 13, 14};
  total += hook("hook", p, q, argc);
  printf("%ld\n", total);
  return 0;
}
