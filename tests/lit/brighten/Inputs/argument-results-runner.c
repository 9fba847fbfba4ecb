#include <stdio.h>
long first(long), second(long, long), third(long, long, long);
double second_double(double, double);
float third_float(float, float, float);
int main(void) {
  printf("%ld %ld %ld %g %g\n", first(11), second(1, 22), third(1, 2, 33), second_double(1, 4.5),
         third_float(1, 2, 5.25f));
  return 0;
}
