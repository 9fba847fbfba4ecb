// A library function's address in data and the same function called by name (BLAKE2's
// `memset_v = &memset` in b2sum, which wipes its state through the volatile pointer so that
// the compiler cannot drop the wipe, while its other code calls memset directly).
#include <stddef.h>
#include <string.h>

static void *(*const volatile wiping)(void *, int, size_t) = memset;

void wipe(char *buffer, size_t length) { wiping(buffer, 0, length); }

int fill(char *buffer, size_t length, int byte) {
  memset(buffer, byte, length);
  return buffer[length / 2];
}
