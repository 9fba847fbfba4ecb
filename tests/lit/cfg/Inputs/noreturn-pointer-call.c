// A call through a pointer to a function that never returns (glibc's obstack failure handler)
// ends its function: the compiler puts nothing after it, and the function's unwind entry ends
// there.
#include <stdlib.h>
#include <string.h>

__attribute__((noreturn)) static void fail(void) { exit(7); }

__attribute__((noreturn)) void (*on_failure)(void) = fail;

__attribute__((noipa)) char *duplicate(const char *text, size_t size) {
  char *copy = malloc(size);
  if (!copy)
    on_failure();
  return memcpy(copy, text, size);
}

__attribute__((noipa)) size_t twice(const char *text) {
  char *copy = duplicate(text, strlen(text) + 1);
  size_t length = strlen(copy) * 2;
  free(copy);
  return length;
}
