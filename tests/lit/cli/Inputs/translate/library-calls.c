/* Library calls of three kinds, for translate-library-calls.test: a function that runs no code
 * of the program (isalpha's __ctype_b_loc, in count_alpha's loop), one that calls back into
 * it (qsort with a comparator, in sort_chars), and a weak import no library defines. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Weak and undefined: its GOT slot stays 0, and calling it ends the translated program. */
extern int hoist_test_absent(int) __attribute__((weak));

__attribute__((noinline)) unsigned long count_alpha(const char *text) {
  unsigned long count = 0;
  for (const char *p = text; *p; ++p)
    if (isalpha((unsigned char)*p))
      ++count;
  return count;
}

static int compare_chars(const void *a, const void *b) {
  return *(const unsigned char *)a - *(const unsigned char *)b;
}

__attribute__((noinline)) void sort_chars(char *text) {
  qsort(text, strlen(text), 1, compare_chars);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "absent") == 0)
    return hoist_test_absent(argc);
  for (int i = 1; i < argc; ++i) {
    char *copy = strdup(argv[i]);
    sort_chars(copy);
    printf("%lu %s\n", count_alpha(argv[i]), copy);
    free(copy);
  }
  printf("absent: %s\n", hoist_test_absent ? "defined" : "null");
  return 0;
}
