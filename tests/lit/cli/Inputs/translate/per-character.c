/* A loop that calls the C library for every character (isprint, toupper, putchar), reads a
 * COPY-relocated variable (stdout) and keeps values in registers across the calls: what
 * translate-imports.test checks the translation does with library calls. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  unsigned long printable = 0, checksum = 0;
  for (int i = 1; i < argc; ++i) {
    for (const char *p = argv[i]; *p; ++p) {
      if (isprint((unsigned char)*p))
        ++printable;
      int upper = toupper((unsigned char)*p);
      checksum = checksum * 31 + (unsigned long)upper;
      putchar(upper);
    }
    putc('\n', stdout);
  }
  printf("%lu printable, checksum %lu, %zu\n", printable, checksum, strlen(argv[0]) > 0 ? (size_t)1 : (size_t)0);
  return (int)(printable & 0x3f);
}
