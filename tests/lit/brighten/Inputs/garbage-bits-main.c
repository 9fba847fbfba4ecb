#include <stdbool.h>
#include <stdio.h>
bool not_95(int value);
int flag_sum(int value, int add);
int scratch_word(const short *from, short *to);
int main(void) {
  printf("%d %d %d\n", not_95(95), not_95(7), not_95(-95));
  printf("%d %d\n", flag_sum(1, 10), flag_sum(2, 10));
  short from = -2, to = 0;
  int returned = scratch_word(&from, &to);
  printf("%d %d\n", returned, to);
  return 0;
}
