/* Control flow for tests/cfg beyond plain switches: nested switches, switches over long and
   unsigned char with large biases, a switch whose default is a noreturn call, tail calls,
   recursion and function pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op { OP_ADD = 100, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR };

__attribute__((noinline, noreturn)) void die(int code) {
  fprintf(stderr, "die %d\n", code);
  exit(code);
}

__attribute__((noinline)) long apply(enum op op, long a, long b) {
  switch (op) {
  case OP_ADD: return a + b;
  case OP_SUB: return a - b;
  case OP_MUL: return a * b;
  case OP_DIV: return b ? a / b : 0;
  case OP_MOD: return b ? a % b : 0;
  case OP_AND: return a & b;
  case OP_OR: return a | b;
  case OP_XOR: return a ^ b;
  case OP_SHL: return a << (b & 63);
  case OP_SHR: return a >> (b & 63);
  }
  die(2);
}

__attribute__((noinline)) int nested(int a, int b) {
  switch (a) {
  case 0:
    switch (b) {
    case 0: return 1; case 1: return 2; case 2: return 3; case 3: return 5; case 4: return 8;
    default: return 0;
    }
  case 1:
    switch (b) {
    case 10: return 13; case 11: return 21; case 12: return 34; case 13: return 55;
    case 14: return 89; case 15: return 144;
    default: return -1;
    }
  case 2: return a * b;
  case 3: return a + b + 7;
  case 4: return puts("four");
  case 5: return nested(b, a - 1);
  default: return -2;
  }
}

__attribute__((noinline)) const char *name_of(unsigned char c) {
  switch (c) {
  case 200: return "two hundred";
  case 201: return "two hundred one";
  case 202: return "two hundred two";
  case 204: return "two hundred four";
  case 205: return "two hundred five";
  case 207: return "two hundred seven";
  case 210: return "two hundred ten";
  default: return "other";
  }
}

__attribute__((noinline)) long big_bias(long x) {
  switch (x) {
  case 1000000: return strlen("a");
  case 1000001: return x / 3;
  case 1000002: return x * 7;
  case 1000003: return x - 11;
  case 1000004: return x ^ 0x1234;
  case 1000005: return (long)name_of((unsigned char)x);
  case 1000006: return x % 13;
  default: die(4);
  }
}

__attribute__((noinline)) int loop_machine(const char *s) {
  int state = 0, count = 0;
  for (; *s; ++s) {
    switch (state) {
    case 0: state = *s == 'a' ? 1 : 0; break;
    case 1: state = *s == 'b' ? 2 : (*s == 'a' ? 1 : 0); break;
    case 2: state = *s == 'c' ? 3 : 0; break;
    case 3: ++count; state = 4; break;
    case 4: state = *s == 'x' ? 5 : 0; break;
    case 5: state = 0; count += 2; break;
    }
  }
  return count;
}

__attribute__((noinline)) int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) int forward(int n) { return fib(n + 1); }

typedef int (*handler)(int);
__attribute__((noinline)) int h0(int x) { return x + 1; }
__attribute__((noinline)) int h1(int x) { return x * 3; }
__attribute__((noinline)) int h2(int x) { return nested(x & 7, x); }
static handler handlers[] = {h0, h1, h2};

__attribute__((noinline)) int call_handler(unsigned i, int x) {
  if (i >= 3)
    abort();
  return handlers[i](x);
}

int main(int argc, char **argv) {
  int x = argc > 1 ? atoi(argv[1]) : 1;
  long r = apply(OP_ADD + (x % 10), x, 3) + nested(x & 7, x) + big_bias(1000000 + x % 7);
  r += loop_machine(argc > 2 ? argv[2] : "abcabcxz") + forward(x & 15) + call_handler(x % 3, x);
  puts(name_of((unsigned char)(200 + x)));
  printf("%ld\n", r);
  return (int)(r & 1);
}
