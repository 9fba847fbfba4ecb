// Runs the recompiled set_last and parse_pairs of flag-guarded.s.
#include <stdio.h>

void set_last(const char *name, const char **out);
int parse_pairs(const char *s, long *pairs);

int main(void) {
  const char *names[] = {"/usr/bin/ls", "plain", "a/b/", ""};
  for (int i = 0; i < 4; i++) {
    const char *last = 0;
    set_last(names[i], &last);
    printf("[%s]\n", last);
  }
  const char *lists[] = {"1,2,30,-4", "7", "5,6,x", "8,9,10"};
  for (int i = 0; i < 4; i++) {
    long pairs[8] = {0};
    int n = parse_pairs(lists[i], pairs);
    printf("%d:", n);
    for (int j = 0; j < 4; j++)
      printf(" %ld", pairs[j]);
    printf("\n");
  }
  return 0;
}
