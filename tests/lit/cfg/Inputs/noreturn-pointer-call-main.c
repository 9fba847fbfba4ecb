#include <stdint.h>
#include <stdio.h>
char *duplicate(const char *text, size_t size);
size_t twice(const char *text);
int main(int argc, char **argv) {
  printf("%zu\n", twice("four"));
  fflush(stdout);
  duplicate("x", argc > 1 ? SIZE_MAX : 1);
  return 0;
}
