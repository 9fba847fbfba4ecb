#include <stdio.h>
#include <stdlib.h>
typedef int (*op_t)(int);
op_t pick(int i);
int square(int x);
int twice(int x);
int thrice(int x);
int main(void) {
  // The brightened pick hands out the brightened handlers, which compare equal to the
  // functions this program calls by name.
  printf("%d %d %d %d %d\n", pick(0)(7), pick(1)(7), pick(2)(7), square(101), square(102));
  printf("%d %d %d\n", pick(0) == twice, pick(1) == thrice, pick(2) == square);
  return 0;
}

// The declined functions stay lifted in the object; none of them runs here.
void __hoist_jmp(void) { abort(); }
