// A .data that starts at 8 modulo 16 and ends where .bss starts, whose table clang -O2 fills
// with 16-byte aligned vector stores (tests/lit/brighten/section-end.test).
#include <stdio.h>
unsigned crc_context = 0xffffffffu;
unsigned rounds = 3;
long seed = 5;
long spare = 7;
static unsigned crc_table[256];

__attribute__((noinline)) unsigned crc(const char *text) {
  for (unsigned i = 0; i < 256; i++) {
    unsigned c = i;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
    crc_table[i] = c;
  }
  unsigned value = crc_context;
  for (unsigned r = 0; r < rounds; r++)
    for (const char *p = text; *p; p++)
      value = (value >> 8) ^ crc_table[(value ^ (unsigned char)*p) & 0xff];
  return ~value + (unsigned)seed;
}

#ifndef NO_MAIN
int main(int argc, char **argv) { printf("%08x\n", crc(argv[argc - 1])); return 0; }
#endif
