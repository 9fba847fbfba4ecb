// A callee that hands its stack arguments on to a call through a pointer takes them all, and a
// caller's saved registers lie there (handed-on-slots.test): `release` tail-calls the
// allocator's `free` through a pointer, as liblzma's `lzma_free` does; `release_all` saves
// RBX, RBP and R12 and calls it.
#include <stdlib.h>

struct allocator {
  void (*free)(void *opaque, void *pointer);
  void *opaque;
};

__attribute__((noinline)) void release(void *pointer, const struct allocator *allocator) {
  if (allocator && allocator->free)
    allocator->free(allocator->opaque, pointer);
  else
    free(pointer);
}

__attribute__((noinline)) int release_all(void **items, const struct allocator *allocator) {
  int released = 0;
  for (int i = 0; i < 4 && items[i]; ++i) {
    release(items[i], allocator);
    items[i] = 0;
    ++released;
  }
  return released;
}

static int freed;

static void counting_free(void *opaque, void *pointer) {
  ++*(int *)opaque;
  free(pointer);
}

int main(void) {
  void *items[5] = {malloc(1), malloc(2), malloc(3), 0, 0};
  struct allocator counting = {counting_free, &freed};
  int released = release_all(items, &counting);
  items[0] = malloc(4);
  released += release_all(items, 0);
  return released * 10 + freed;   // 41
}
