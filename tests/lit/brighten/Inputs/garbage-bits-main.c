#include <stdbool.h>
#include <stdio.h>
bool not_95(int value);
int flag_sum(int value, int add);
int main(void) {
  printf("%d %d %d\n", not_95(95), not_95(7), not_95(-95));
  printf("%d %d\n", flag_sum(1, 10), flag_sum(2, 10));
  return 0;
}
