// An allocator held in read-only data, handed on by value (docs/BRIGHTEN.md, "Calls through
// a code pointer"): zstd's ZSTD_customMem, which its context constructors copy with movdqu.
#include <stdlib.h>
typedef void *(*alloc_fn)(void *, size_t);
typedef void (*free_fn)(void *, void *);
typedef struct { alloc_fn alloc; free_fn release; void *opaque; } allocator;
__attribute__((noinline)) static void *default_alloc(void *opaque, size_t size) {
  (void)opaque;
  return malloc(size);
}
__attribute__((noinline)) static void default_free(void *opaque, void *p) {
  (void)opaque;
  free(p);
}
static const allocator default_allocator = {default_alloc, default_free, NULL};
struct context { allocator mem; long value; };
__attribute__((noinline)) struct context *create(allocator mem, long value) {
  struct context *c = mem.alloc(mem.opaque, sizeof *c);
  c->mem = mem;
  c->value = value;
  return c;
}
__attribute__((noinline)) struct context *create_default(long value) {
  return create(default_allocator, value);
}
__attribute__((noinline)) long destroy(struct context *c) {
  long value = c->value;
  int ours = c->mem.alloc == default_alloc;
  c->mem.release(c->mem.opaque, c);
  return value * 2 + ours;
}
__attribute__((noinline)) struct context *create_explicit(long value) {
  allocator mem = {default_alloc, default_free, NULL};
  return create(mem, value);
}
