/* Calls between functions, recursion and a libc call, for calls-gcc-O0.test. */
#include <stdio.h>
#include <string.h>

int square(int x) { return x * x; }
int sum_squares(int a, int b) { return square(a) + square(b); }
int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
long length_plus_one(const char *s) { return (long)strlen(s) + 1; }
int is_even(unsigned n);
int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
long seven(long a, long b, long c, long d, long e, long f, long g) { return a + b + c + d + e + f + g * 3; }
long call_seven(long x) { return seven(x, 1, 2, 3, 4, 5, x); }
void say(int x) { printf("x=%d\n", x); }

int main(void) { return 0; }
