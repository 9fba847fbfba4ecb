/* Calls into the middle of a function: lifted code only exists for function entries. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int target(int x) { return x * 3 + 1; }
int main(int argc, char **argv) {
  (void)argv;
  int (*pointer)(int) = (int (*)(int))((char *)target + atoi("4") + argc - 1);
  printf("before\n");
  fflush(stdout);
  return pointer(argc);
}
