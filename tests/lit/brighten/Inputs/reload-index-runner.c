/* Runs classify (Inputs/reload-index.S, brightened with its callee bump) over codes in and
   out of its table. */
#include <stdio.h>
int classify(const unsigned char *code, int x);
int main(void) {
  for (unsigned char code = 0; code < 7; ++code)
    printf("%d ", classify(&code, 10 + code));
  printf("\n");
  return 0;
}
