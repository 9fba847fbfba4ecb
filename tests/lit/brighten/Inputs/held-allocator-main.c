// Creates and destroys contexts through the default allocator, held in data or built from the
// functions' addresses: prints (argc + 20) * 2 + 1 and (argc + 30) * 2 + 1, the 1 only where
// the context's allocator is the default one by pointer comparison.
#include <stdio.h>

struct context;
struct context *create_default(long value);
struct context *create_explicit(long value);
long destroy(struct context *c);

int main(int argc, char **argv) {
  (void)argv;
  printf("%ld\n", destroy(create_default(argc + 20)));
  printf("%ld\n", destroy(create_explicit(argc + 30)));
  return 0;
}
