// Calls the brightened hash_buffer and hash_copy through their C prototypes.
#include <stdint.h>
#include <stdio.h>

uint64_t hash_buffer(uint32_t seed);
uint64_t hash_copy(const char *text, uint32_t rounds);

int main(void) {
  for (uint32_t seed = 0; seed < 5; ++seed)
    printf("%llu\n", (unsigned long long)hash_buffer(seed * 977));
  printf("%llu\n", (unsigned long long)hash_copy("large frames", 3));
  printf("%llu\n", (unsigned long long)hash_copy("a longer text to copy", 1000000));
  return 0;
}
