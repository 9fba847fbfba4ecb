// Runs the recompiled count_spaces of bool-result.s.
#include <stdio.h>

int count_spaces(const char **v, int n);

int main(void) {
  const char *v[] = {" a", "b", "  ", "", "\tc", " "};
  printf("%d %d %d\n", count_spaces(v, 6), count_spaces(v, 1), count_spaces(v + 1, 1));
  return 0;
}
