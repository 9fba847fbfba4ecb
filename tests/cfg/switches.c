/* Switch-heavy functions for tests/cfg: dense and sparse cases, several sizes, biased ranges,
   char and long selectors, switches in loops, noreturn helpers and tail calls. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int dense4(int x) {
  switch (x) {
  case 0: return 11;
  case 1: return 23;
  case 2: return 37;
  case 3: return 41;
  case 4: return 59;
  default: return -1;
  }
}

__attribute__((noinline)) int dense8_biased(int x) {
  switch (x) {
  case 10: return x * 3;
  case 11: return x ^ 0x55;
  case 12: return x + 100;
  case 13: return x - 7;
  case 14: return x << 2;
  case 15: return x >> 1;
  case 16: return x * x;
  case 17: return ~x;
  default: return 0;
  }
}

__attribute__((noinline)) long dense16(unsigned long x, long y) {
  switch (x) {
  case 0: return y + 1;
  case 1: return y * 2;
  case 2: return y - 3;
  case 3: return y ^ 4;
  case 4: return y | 5;
  case 5: return y & 6;
  case 6: return y << 7;
  case 7: return y >> 8;
  case 8: return y * y;
  case 9: return -y;
  case 10: return y / 3;
  case 11: return y % 7;
  case 12: return y + 1000;
  case 13: return y * 77;
  case 14: return y - 99;
  case 15: return y + x;
  default: return 0;
  }
}

__attribute__((noinline)) int holes(int x) {
  switch (x) {
  case 1: return printf("one\n");
  case 3: return printf("three\n");
  case 4: return printf("four\n");
  case 7: return printf("seven\n");
  case 9: return printf("nine\n");
  case 12: return printf("twelve\n");
  case 13: return puts("thirteen");
  default: return 0;
  }
}

__attribute__((noinline)) int sparse(int x) {
  switch (x) {
  case 1: return 5;
  case 100: return 7;
  case 1000: return 9;
  case 10000: return 13;
  case 100000: return 17;
  default: return 1;
  }
}

__attribute__((noinline)) int chars(char c) {
  switch (c) {
  case 'a': return 1;
  case 'b': return 2;
  case 'c': return 3;
  case 'd': return 5;
  case 'e': return 8;
  case 'f': return 13;
  case 'g': return 21;
  case 'h': return 34;
  default: return 0;
  }
}

__attribute__((noinline)) int interpreter(const unsigned char *code, int n) {
  int acc = 0, pc = 0;
  while (pc < n) {
    switch (code[pc++]) {
    case 0: acc += 1; break;
    case 1: acc -= 1; break;
    case 2: acc *= 2; break;
    case 3: acc /= 2; break;
    case 4: acc = -acc; break;
    case 5: acc ^= 0xff; break;
    case 6: printf("%d\n", acc); break;
    case 7: return acc;
    case 8: acc += code[pc++]; break;
    case 9: acc -= code[pc++]; break;
    default: abort();
    }
  }
  return acc;
}

__attribute__((noinline)) int big(int x, int y) {
  switch (x & 31) {
  case 0: return y + 3; case 1: return y * 5; case 2: return y - 7; case 3: return y ^ 9;
  case 4: return y + 11; case 5: return y * 13; case 6: return y - 15; case 7: return y ^ 17;
  case 8: return y + 19; case 9: return y * 21; case 10: return y - 23; case 11: return y ^ 25;
  case 12: return y + 27; case 13: return y * 29; case 14: return y - 31; case 15: return y ^ 33;
  case 16: return y + 35; case 17: return y * 37; case 18: return y - 39; case 19: return y ^ 41;
  case 20: return y + 43; case 21: return y * 45; case 22: return y - 47; case 23: return y ^ 49;
  case 24: return y + 51; case 25: return y * 53; case 26: return y - 55; case 27: return y ^ 57;
  case 28: return y + 59; case 29: return y * 61; case 30: return y - 63; default: return y;
  }
}

__attribute__((noinline, noreturn)) void fail(const char *why) {
  fprintf(stderr, "fail: %s\n", why);
  exit(3);
}

__attribute__((noinline)) int checked(int x) {
  if (x < 0)
    fail("negative");
  return dense4(x);
}

__attribute__((noinline)) int tail(int x) { return holes(x + 1); }

static int (*const table[])(int) = {dense4, dense8_biased, holes, sparse};

int main(int argc, char **argv) {
  int x = argc > 1 ? atoi(argv[1]) : 2;
  unsigned char code[] = {0, 2, 8, 5, 6, 7};
  int r = dense4(x) + dense8_biased(x + 10) + (int)dense16(x, argc) + holes(x) + sparse(x) +
          chars('a' + x) + interpreter(code, sizeof code) + big(x, argc) + checked(x) + tail(x);
  r += table[x & 3](x);
  printf("%d\n", r);
  return r & 1;
}
