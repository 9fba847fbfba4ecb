#pragma once

#ifdef __cplusplus
extern "C" {
#endif

long fib(long n);
long sum_array(const long *values, long count);
long sum_of_squares(long n);
int is_even(unsigned n);
int is_odd(unsigned n);
long weighted(long a, long b, long c, long d);

#ifdef __cplusplus
}
#endif
