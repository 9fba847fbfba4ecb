// Calls the brightened get, bump and say (this program's definitions interpose the
// library's) and the library's own peek, which must see what the brightened bump wrote.
#include <stdio.h>
unsigned get(int), peek(int);
void bump(int);
int say(const char *);
int main(void) {
  printf("%u ", get(3));
  bump(3);
  printf("%u %u ", peek(3), get(3));
  fflush(stdout);
  say("said\n");
  return 0;
}
