// Prints what machine-queries.c's functions answer, brightened or as built.
#include <stdio.h>

void vendor(char *name);
unsigned features(void);
unsigned long long enabled_state(void);
int time_goes_forward(void);

int main(void) {
  char name[13];
  vendor(name);
  printf("%s %x %llx %d\n", name, features(), enabled_state(), time_goes_forward());
  return 0;
}
