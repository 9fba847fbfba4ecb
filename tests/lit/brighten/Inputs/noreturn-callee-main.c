#include <stdio.h>
#include <stdlib.h>
void *xmalloc(size_t n);
long checked_div(long a, long b);
long must_be_positive(long x);
int main(int argc, char **argv) {
  (void)argv;
  long *p = xmalloc(sizeof *p);
  *p = checked_div(42, 6);
  printf("%ld %ld\n", *p, must_be_positive(21));
  fflush(stdout);
  return (int)checked_div(1, argc - 1);   /* no arguments: division by zero, exit 3 */
}
