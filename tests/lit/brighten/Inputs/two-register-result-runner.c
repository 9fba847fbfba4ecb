// Calls the brightened functions of two-register-result.c as C does, through their prototypes.
#include <stdio.h>

struct pair { long first; long second; };
struct point { double x, y; };
struct point rotated(double x, double y);
double spread(double x, double y);
struct pair swapped(long a, long b);
__int128 widened(long a);
long sum_of(long a, long b);
long uses_kept(long x);

int main(void) {
  struct pair p = swapped(3, 4);
  __int128 w = widened(5);
  struct point r = rotated(1.5, 2);
  printf("%ld %ld %ld %llu %llu %g %g %g %ld\n", p.first, p.second, sum_of(3, 4),
         (unsigned long long)(w >> 64), (unsigned long long)w, r.x, r.y, spread(1.5, 2),
         uses_kept(5));
  return 0;
}
