// Runs library-function-in-data.c's functions, brightened or as built.
#include <stdio.h>
#include <stddef.h>
void wipe(char *buffer, size_t length);
int fill(char *buffer, size_t length, int byte);
int main(void) {
  char buffer[32];
  int middle = fill(buffer, sizeof buffer, 'x');
  wipe(buffer, 16);
  printf("%c %d %c\n", middle, buffer[3], buffer[20]);
  return 0;
}
