// Calls the brightened functions of mixed-result.c as C does, through their prototypes.
#include <stdio.h>

struct counted { long count; double sum; };
struct scaled { double factor; long shift; };
struct counted total(const double *values, long n);
struct scaled halve(long x);
struct counted loaded(const struct counted *p);
double mean(const double *values, long n);
long mix(long x);
double scaled_sum(double x, double y);
typedef long long v2di __attribute__((vector_size(16)));
v2di load16(const char *from);
void copy16(char *to, const char *from);
long width(char *to, const char *from);
struct cell { short type; double value; };
struct cell *through_table(struct cell *sp);

int main(void) {
  double values[] = {1.5, -2, 3, 4.25};
  struct counted t = total(values, 4);
  struct scaled h = halve(9);
  struct counted in = {7, 0.125};
  struct counted l = loaded(&in);
  char bytes[17] = "fifteen bytes..", copied[17] = {0}, loaded16[17] = {0};
  v2di v = load16(bytes);
  __builtin_memcpy(loaded16, &v, 16);
  long fourth = width(copied, bytes);
  copied[9] = 0;
  loaded16[10] = 0;
  struct cell c = {1, 6};
  printf("%ld %g %g %ld %ld %g %g %s%s %c %ld %g %g\n", t.count, t.sum, h.factor, h.shift,
         l.count, l.sum, mean(values, 4), loaded16, copied, (char)fourth, mix(5),
         scaled_sum(2.25, 1.75), through_table(&c)->value);
  return 0;
}
