#include <stdio.h>
int pick5(int x);
int act7(int x, int y);
int main(void) {
  for (int x = -2; x <= 9; ++x)
    printf("%d:%d:%d ", x, pick5(x), act7(x, 100 + x));
  printf("\n");
  return 0;
}
