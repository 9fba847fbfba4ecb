// Runs variadic-lists.c's functions, brightened or as built (variadic-lists.test).
#include <stdio.h>

long same_pid(void);
long write_twice(const char *text, long length);
int echo_words(const char *first, const char *second);
int echo_by_path(const char *word);
int env_only(const char *setting);
int renamed(const char *name);
long gmp_sum(long a, long b);

int main(void) {
  printf("same pid %ld\n", same_pid());
  fflush(stdout);
  printf(" wrote %ld\n", write_twice("ab", 2));
  printf("status %d\n", echo_words("one", "two"));
  printf("status %d\n", echo_by_path("three"));
  printf("status %d\n", env_only("HOIST_TEST=4"));
  printf("renamed %d\n", renamed("hoisted"));
  printf("sum %ld\n", gmp_sum(40, 2));
  return 0;
}
