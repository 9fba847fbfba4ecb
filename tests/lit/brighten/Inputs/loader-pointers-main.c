#include <stdio.h>
int greet(void);
const char *name_of(unsigned index);
int complain(const char *text);
int main(void) {
  greet();
  for (unsigned i = 0; i < 4; ++i)
    printf("%u %s\n", i, name_of(i));
  complain("to stderr\n");
  return 0;
}
