// Sets each parameter through the brightened set_parameter and prints what it returned.
#include <stdio.h>

long set_parameter(int *stored, int param, long value);

int main(int argc, char **argv) {
  (void)argv;
  int stored = 0;
  long total = 0;
  int params[] = {100, 101, 107, 130, 160, 200, 202, 10, 400, 402, 1000, 1009, 5, 150, 1003};
  for (unsigned i = 0; i < sizeof params / sizeof *params; ++i)
    total = total * 7 + set_parameter(&stored, params[i], argc + i);
  printf("%ld %d\n", total, stored);
  return 0;
}
