/* The brightening corpus (docs/BRIGHTEN.md): functions whose lifted, brightened and recompiled
 * versions run-corpus.sh compares with the compiled originals (driver.c): leaf functions, then
 * calls between functions, recursion, stack arguments and calls to libc. */
#include "corpus.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int add3(int a, int b, int c) { return a + b + c; }
long long mul_add(long long a, long long b, long long c) { return a * b + c; }
long long six(long long a, long long b, long long c, long long d, long long e, long long f) { return a - b + c - d + e - f; }
unsigned udiv_mod(unsigned a, unsigned b) { return b ? a / b + a % b : a; }
int sdiv(int a, int b) { return (b == 0 || (a == -2147483647 - 1 && b == -1)) ? 0 : a / b; }
int max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}
int narrow_compare(unsigned char a, unsigned char b) { return a < b ? -1 : a > b; }
short mul16(short a, short b) { return (short)(a * b); }
unsigned long long rotl64(unsigned long long x, int r) {
  r &= 63;
  return r ? (x << r) | (x >> (64 - r)) : x;
}
unsigned popcount_loop(unsigned x) {
  unsigned n = 0;
  while (x) {
    n += x & 1;
    x >>= 1;
  }
  return n;
}
int factorial(int n) {
  int r = 1;
  for (int i = 2; i <= n; i++)
    r *= i;
  return r;
}
long long fib_iter(int n) {
  long long a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    long long t = a + b;
    a = b;
    b = t;
  }
  return a;
}
long long sum_array(const long long *p, int n) {
  long long s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  return s;
}
void scale(int *p, int n, int k) {
  for (int i = 0; i < n; i++)
    p[i] = p[i] * k + i;
}
int classify(int x) {
  switch (x) {
  case 0: return 10;
  case 1: return 21;
  case 2: return 32;
  case 3: return 43;
  case 4: return 54;
  case 5: return 65;
  case 7: return 87;
  default: return -1;
  }
}
int lookup_local(int i) {
  int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  return table[i & 7] * (i >> 3);
}
int dot(const struct point *a, const struct point *b) { return a->x * b->x + a->y * b->y; }
void swap_point(struct point *p) {
  int t = p->x;
  p->x = p->y;
  p->y = t;
}
long long bytes_until_zero(const char *s) {
  long long n = 0;
  while (s[n])
    n++;
  return n;
}
double dadd(double a, double b) { return a + b; }
float fmul(float a, float b) { return a * b; }
double mix(double x, float y, int n) { return x * y + n; }

/* Calls between corpus functions: brightened callers call brightened callees. */
int square(int x) { return x * x; }
int sum_squares(int a, int b) { return square(a) + square(b); }
int fact_rec(int n) { return n <= 1 ? 1 : n * fact_rec(n - 1); }
int fib_rec(int n) { return n < 2 ? n : fib_rec(n - 1) + fib_rec(n - 2); }
int is_even_rec(unsigned n) { return n == 0 ? 1 : is_odd_rec(n - 1); }
int is_odd_rec(unsigned n) { return n == 0 ? 0 : is_even_rec(n - 1); }
unsigned long long gcd_rec(unsigned long long a, unsigned long long b) { return b ? gcd_rec(b, a % b) : a; }
/* The seventh argument is on the stack (SysV). */
long long seven_sum(long long a, long long b, long long c, long long d, long long e, long long f, long long g) {
  return a - b + c - d + e - f + g * 3;
}
long long call_seven(long long x, long long y) { return seven_sum(x, y, 1, 2, 3, 4, x ^ y) + 1; }
int point_norm2(const struct point *p) { return square(p->x) + square(p->y); }
void scale_point(struct point *p, int k) {
  p->x = sum_squares(p->x, k);
  p->y *= k;
}
/* Calls to libc, by name with their prototypes. */
long long length_plus(const char *s, long long k) { return (long long)strlen(s) + k; }
int compare_sign(const char *a, const char *b) {
  int c = strcmp(a, b);
  return (c > 0) - (c < 0);
}
int fill_sum(int value, int n) {
  char buffer[32];
  n &= 31;
  memset(buffer, value, (size_t)n);
  int sum = 0;
  for (int i = 0; i < n; i++)
    sum += buffer[i];
  return sum + abs(value);
}
double hypotenuse(double a, double b) { return sqrt(a * a + b * b); }
/* A double result next to an integer computed from a double: gcc -O2 leaves (int)y in EAX as
 * scratch (cvttsd2si), which once made the brightened function return it. */
double scratch_int_result_double(double x, double y) {
  return (double)(long)(x * 1000.0) / 7.0 + (int)y;
}
/* The other way round: the int result is made from a double left in XMM0. */
int truncate_doubled(double x) { return (int)(x * 2.0); }
/* clang -O0 flips the sign through RAX (movq %xmm0, %rax). */
double negate(double x) { return -x; }
float fdot(const float *a, const float *b, int n) {
  float sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i] * b[i];
  return sum;
}
/* Global state: brightened code refers to its own copy of the image's .data and .bss, which
 * starts with the original bytes and is updated in place as the original's is. */
int call_counter;                                   /* .bss */
int accumulator[8] = {3, 1, 4, 1, 5, 9, 2, 6};      /* .data, updated in place */
int weights[8] = {2, 7, 1, 8, 2, 8, 1, 8};          /* .data, a table only read */
long long total = 1000;                             /* .data */
static char scratch[32];                            /* .bss, handed out by address */
int count_calls(int k) {
  call_counter += (k & 3) + 1;
  return call_counter;
}
int count_twice(int k) { return count_calls(k) + count_calls(k >> 2); }
void accumulate(int i, int v) { accumulator[i & 7] += v; }
int weigh(int i) { return weights[i & 7] * i; }
long long add_total(long long v) {
  total += v;
  return total;
}
/* Pointers into the image escape: returned, compared, stored into the caller's memory. */
char *fill_scratch(int c, int n) {
  n &= 31;
  for (int i = 0; i < n; i++)
    scratch[i] = (char)(c + i);
  return scratch;
}
int is_scratch(const char *p) { return p == scratch; }
void counter_address(int **slot) { *slot = &call_counter; }
/* A pointer into read-only data returned: the brightened copy's string. */
const char *yes_no(int i) { return i > 0 ? "yes" : i < 0 ? "no" : "maybe"; }
/* SSE vectors as arguments and results (SysV: in XMM registers; Win64: arguments by
 * reference, results in XMM0). */
__m128 vadd_ps(__m128 a, __m128 b) { return _mm_add_ps(a, b); }
__m128d vmul_pd(__m128d a, __m128d b) { return _mm_mul_pd(a, b); }
__m128i vadd_epi32(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
__m128 vscale_ps(__m128 a, float k) { return _mm_mul_ps(a, _mm_set1_ps(k)); }
float vsum_ps(__m128 a) {
  __m128 pairs = _mm_add_ps(a, _mm_movehl_ps(a, a));
  return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_shuffle_ps(pairs, pairs, 1)));
}
__m128i vload_add(const int *p, __m128i b) { return _mm_add_epi32(_mm_loadu_si128((const __m128i *)p), b); }
