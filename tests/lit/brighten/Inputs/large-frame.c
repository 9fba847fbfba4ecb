// Functions whose frames are larger than the brightened function's 64 KiB local stack: a
// buffer on the stack filled and hashed (cksum's and lz4's), one larger still, and one past
// the largest local stack brightening gives.
#include <stdint.h>
#include <string.h>

__attribute__((noinline)) uint64_t hash_buffer(uint32_t seed) {
  unsigned char buf[100000];
  for (size_t i = 0; i < sizeof buf; ++i)
    buf[i] = (unsigned char)(seed * 31 + i * 7 + (i >> 8));
  uint64_t hash = 1469598103934665603ull;
  for (size_t i = 0; i < sizeof buf; ++i)
    hash = (hash ^ buf[i]) * 1099511628211ull;
  return hash;
}

__attribute__((noinline)) uint64_t hash_copy(const char *text, uint32_t rounds) {
  char buf[1 << 20];
  size_t length = strlen(text);
  size_t filled = 0;
  for (uint32_t r = 0; r < rounds && filled + length <= sizeof buf; ++r) {
    memcpy(buf + filled, text, length);
    filled += length;
  }
  uint64_t hash = filled;
  for (size_t i = 0; i < filled; ++i)
    hash = hash * 131 + (unsigned char)buf[i];
  return hash;
}

__attribute__((noinline)) uint64_t too_large(uint32_t seed) {
  volatile unsigned char buf[16 << 20];
  buf[seed] = 1;
  buf[0] = 2;
  return buf[seed & 15];
}

int main(void) { return (int)hash_buffer(1); }
