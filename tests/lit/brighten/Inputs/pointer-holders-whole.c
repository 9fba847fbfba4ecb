#include <stdio.h>
int through_holder(void);
int **holder_address(void);
int through_plain(void);
int main(void) {
  printf("%d %d %d\n", through_holder(), **holder_address(), through_plain());
  return 0;
}
