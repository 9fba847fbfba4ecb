#include <stdio.h>
int through_plain(void);
int main(void) {
  printf("%d\n", through_plain());
  return 0;
}
