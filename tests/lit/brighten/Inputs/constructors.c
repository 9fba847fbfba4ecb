/* A program whose constructors and destructors do its work: a brightened whole program runs
 * them as the original does (constructors.test). */
#include <stdio.h>
#include <stdlib.h>

static int table[8];
static int ready;

__attribute__((constructor)) static void fill_table(void) {
  for (int i = 0; i < 8; ++i)
    table[i] = i * i + 1;
  ready += 1;
}

/* glibc calls each .init_array function with main's arguments. */
__attribute__((constructor)) static void count_arguments(int argc, char **argv) {
  ready += argc;
  if (argc > 1)
    ready += (int)strtol(argv[1], 0, 10);
}

__attribute__((destructor)) static void report_at_exit(void) {
  printf("destructor: ready=%d\n", ready);
}

int main(int argc, char **argv) {
  int sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += table[i];
  printf("main: ready=%d sum=%d argc=%d\n", ready, sum, argc);
  return 0;
}
