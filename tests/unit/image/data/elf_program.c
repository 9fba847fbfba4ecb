/* An ELF test program: a function, initialized and zeroed data, read-only data, and calls to
 * libc through the PLT. Built -no-pie, -pie and with IBT PLTs (.plt.sec). */
#include <stdio.h>

int counter = 42;
const char greeting[] = "hello from hoist";
static int scratch[64];

int square(int x) { return x * x; }

int main(int argc, char **argv) {
  (void)argv;
  scratch[argc & 63] = argc;
  puts(greeting);
  printf("%d %d\n", square(argc), counter + scratch[argc & 63]);
  return 0;
}
