/* A frame that grows by an amount computed at run time: a variable-length array and alloca. */
#include <alloca.h>
#include <string.h>

long sum_array(long n) {
  char buffer[n];
  memset(buffer, 3, n);
  long sum = 0;
  for (long i = 0; i < n; i += 7)
    sum += buffer[i] * i;
  return sum;
}

long sum_alloca(long n) {
  long *values = alloca(n * sizeof(long));
  for (long i = 0; i < n; ++i)
    values[i] = i * 5;
  long sum = 0;
  for (long i = 0; i < n; i += 3)
    sum += values[i];
  return sum;
}
