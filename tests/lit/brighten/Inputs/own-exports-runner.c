#include <stdio.h>

long twice_triangle(long n);
long triangle(long n);

int main(void) {
  printf("%ld %ld\n", triangle(10), twice_triangle(100));
  return 0;
}
