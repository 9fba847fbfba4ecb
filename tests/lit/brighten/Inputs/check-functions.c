/* Functions of several signatures for the differential check (check-*.test): integers,
   pointers, a loop, floating point, a struct result, a global counter and import calls. */
#include <stddef.h>
#include <string.h>
#include <stdlib.h>

struct pair {
  long low, high;
};

int add3(int a, int b, int c) { return a + b + c; }

long sum_array(const long *values, long count) {
  long sum = 0;
  for (long i = 0; i < (count & 63); ++i)
    sum += values[i];
  return sum;
}

void fill_bytes(unsigned char *out, int count, int seed) {
  for (int i = 0; i < (count & 127); ++i)
    out[i] = (unsigned char)(seed * 31 + i);
}

unsigned hash_string(const char *text) {
  unsigned hash = 5381;
  for (int i = 0; i < 200 && text[i]; ++i)
    hash = hash * 33 + (unsigned char)text[i];
  return hash;
}

double blend(double x, double y, int weight) { return x * weight + y / 3.0; }

float larger(float a, float b) { return a > b ? a : b; }

struct pair split(long value) {
  struct pair result = {value & 0xffff, value >> 16};
  return result;
}

static long total;
long accumulate(long amount) {
  total += amount;
  return total;
}

long nul_offset(const char *text) {
  const char *end = memchr(text, 0, 64);
  return end ? end - text : -1;
}

int compare_prefix(const char *a, const char *b) { return strncmp(a, b, 8) < 0 ? -1 : 1; }

int parse_number(const char *text) { return (int)strtol(text, NULL, 10) + 1; }

int clamp_index(int index, int size) {
  if (index < 0)
    return 0;
  if (index >= size)
    return size - 1;
  return index;
}

int main(void) { return 0; }
