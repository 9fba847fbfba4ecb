/* Runs low_bits (Inputs/byte-after-call.S, brightened with note) over bytes whose low 6 bits
   are positive and negative. */
#include <stdio.h>
int low_bits(const signed char *p);
int main(void) {
  signed char bytes[] = {0x3b, 0x1f, 0x20, -1, 0x40, 0x7f};
  for (unsigned i = 0; i < sizeof bytes; ++i)
    printf("%d ", low_bits(&bytes[i]));
  printf("\n");
  return 0;
}
