#include <stdio.h>
#include <string.h>
__thread int counter;
/* A local buffer: -fstack-protector-strong guards it. */
int checksum(const char *text) {
  char copy[64];
  strncpy(copy, text, sizeof copy - 1);
  copy[63] = 0;
  int sum = 0;
  for (int i = 0; copy[i]; i++)
    sum += copy[i];
  return sum;
}
/* A double result next to gcc -O0's guard check in RAX. */
double scaled(double x) {
  volatile char pad[16];
  pad[0] = 1;
  return x * 2.5 + pad[0];
}
/* The binary's own thread-local storage: %fs:-4, which the recompiled program does not have. */
int bump(void) { return ++counter; }
int main(int argc, char **argv) { return checksum(argv[0]) + (int)scaled(argc) + bump(); }

/* The constant 0 after the guard check: clang -O1 checks the guard in RAX and then zeroes EAX,
   which is the result. */
int zero_after_check(const char *text) {
  char copy[64];
  strncpy(copy, text, sizeof copy - 1);
  copy[sizeof copy - 1] = 0;
  puts(copy);
  return 0;
}
