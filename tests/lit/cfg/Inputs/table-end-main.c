// Runs table-end.c's functions, brightened or as built (brighten/table-end.test).
#include <stdio.h>
int classify_token(int c);
int two_tokens(int c, int d);
int main(void) {
  long sum = 0;
  for (int c = -40; c < 40; ++c) {
    sum = sum * 31 + classify_token(c * 977);
    for (int d = 0; d < 9; ++d)
      sum = sum * 17 + two_tokens(c * 131, d * 3 + c);
  }
  printf("%ld\n", sum);
  return 0;
}
