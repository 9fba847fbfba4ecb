/* The brightening corpus's prototypes (corpus.c); driver.c declares the brightened copies. */
#include <emmintrin.h>

struct point {
  int x, y;
};
#define CORPUS_FUNCTIONS(X)                                                                        \
  X(int, add3, (int a, int b, int c))                                                              \
  X(long long, mul_add, (long long a, long long b, long long c))                                   \
  X(long long, six, (long long a, long long b, long long c, long long d, long long e, long long f)) \
  X(unsigned, udiv_mod, (unsigned a, unsigned b))                                                  \
  X(int, sdiv, (int a, int b))                                                                     \
  X(int, max3, (int a, int b, int c))                                                              \
  X(int, narrow_compare, (unsigned char a, unsigned char b))                                       \
  X(short, mul16, (short a, short b))                                                              \
  X(unsigned long long, rotl64, (unsigned long long x, int r))                                     \
  X(unsigned, popcount_loop, (unsigned x))                                                         \
  X(int, factorial, (int n))                                                                       \
  X(long long, fib_iter, (int n))                                                                  \
  X(long long, sum_array, (const long long *p, int n))                                             \
  X(void, scale, (int *p, int n, int k))                                                           \
  X(int, classify, (int x))                                                                        \
  X(int, lookup_local, (int i))                                                                    \
  X(int, dot, (const struct point *a, const struct point *b))                                      \
  X(void, swap_point, (struct point *p))                                                           \
  X(long long, bytes_until_zero, (const char *s))                                                  \
  X(double, dadd, (double a, double b))                                                            \
  X(float, fmul, (float a, float b))                                                               \
  X(double, mix, (double x, float y, int n))                                                       \
  X(int, square, (int x))                                                                          \
  X(int, sum_squares, (int a, int b))                                                              \
  X(int, fact_rec, (int n))                                                                        \
  X(int, fib_rec, (int n))                                                                         \
  X(int, is_even_rec, (unsigned n))                                                                \
  X(int, is_odd_rec, (unsigned n))                                                                 \
  X(unsigned long long, gcd_rec, (unsigned long long a, unsigned long long b))                     \
  X(long long, seven_sum, (long long a, long long b, long long c, long long d, long long e, long long f, long long g)) \
  X(long long, call_seven, (long long x, long long y))                                             \
  X(int, point_norm2, (const struct point *p))                                                     \
  X(void, scale_point, (struct point *p, int k))                                                   \
  X(long long, length_plus, (const char *s, long long k))                                          \
  X(int, compare_sign, (const char *a, const char *b))                                             \
  X(int, fill_sum, (int value, int n))                                                             \
  X(double, hypotenuse, (double a, double b))                                                      \
  X(double, scratch_int_result_double, (double x, double y))                                       \
  X(int, truncate_doubled, (double x))                                                             \
  X(double, negate, (double x))                                                                    \
  X(float, fdot, (const float *a, const float *b, int n))                                          \
  X(int, count_calls, (int k))                                                                     \
  X(int, count_twice, (int k))                                                                     \
  X(void, accumulate, (int i, int v))                                                              \
  X(int, weigh, (int i))                                                                           \
  X(long long, add_total, (long long v))                                                           \
  X(char *, fill_scratch, (int c, int n))                                                          \
  X(int, is_scratch, (const char *p))                                                              \
  X(void, counter_address, (int **slot))                                                          \
  X(const char *, yes_no, (int i))                                                                 \
  X(__m128, vadd_ps, (__m128 a, __m128 b))                                                         \
  X(__m128d, vmul_pd, (__m128d a, __m128d b))                                                      \
  X(__m128i, vadd_epi32, (__m128i a, __m128i b))                                                   \
  X(__m128, vscale_ps, (__m128 a, float k))                                                        \
  X(float, vsum_ps, (__m128 a))                                                                    \
  X(__m128i, vload_add, (const int *p, __m128i b))

/* The corpus's global variables, which brightened code keeps its own copy of (driver.c compares
 * the copies' bytes with the originals' after every call). */
#define CORPUS_GLOBALS(X) X(call_counter) X(accumulator) X(weights) X(total)
extern int call_counter;
extern int accumulator[8];
extern int weights[8];
extern long long total;

/* A PE build's originals are function pointers into the loaded image (driver.c). */
#ifndef CORPUS_PE
#define CORPUS_DECLARE(ret, name, params) ret name params;
CORPUS_FUNCTIONS(CORPUS_DECLARE)
#endif
