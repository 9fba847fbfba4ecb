// Runs reloaded-flag.s's count_upper brightened, with show_length, which it calls
// (reloaded-flag.test).
#include <stdio.h>
#include <stddef.h>

size_t count_upper(const char *s, size_t *count);

int main(void) {
  size_t upper = 99;
  size_t length = count_upper("Hello World", &upper);
  printf("%zu %zu\n", length, upper);
  length = count_upper("no capitals", NULL);
  printf("%zu\n", length);
  upper = 99;
  length = count_upper("", &upper);
  printf("%zu %zu\n", length, upper);
  return 0;
}
