#include <stdio.h>
long first(long), second(long, long), third(long, long, long);
int main(void) {
  printf("%ld %ld %ld\n", first(11), second(1, 22), third(1, 2, 33));
  return 0;
}
