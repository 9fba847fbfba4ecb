/* A loop that calls the C library and a small function of the program for every character
 * (as wc calls mbrtowc and rpl_mbrtowc): what translate-lifted-calls.test checks the
 * translation keeps out of State. */
#include <ctype.h>
#include <stdio.h>
#include <stdio_ext.h>

__attribute__((noinline)) int classify(int c) {
  return c >= '0' && c <= '9' ? 1 : c == ' ' ? 2 : 0;
}

__attribute__((noinline)) long count(const char *text) {
  long digits = 0, spaces = 0;
  for (; *text; ++text) {
    int kind = classify(toupper((unsigned char)*text));
    digits += kind == 1;
    spaces += kind == 2;
  }
  return digits * 1000 + spaces;
}

/* sort's close_stdout -> close_stream -> rpl_fclose: the stream is kept in a callee-saved
 * register across a library call and passed on in rdi to a function of the program that calls
 * the library again. Once inlined into one another, a writeback of rdi that only one side
 * thought dead made the translated sort pass garbage to fclose at exit. */
__attribute__((noinline)) int finish(FILE *stream) {
  return fileno(stream) >= 0 ? fflush(stream) : -1;
}

__attribute__((noinline)) int close_like(FILE *stream) {
  int pending = __fpending(stream) != 0;
  return finish(stream) * 2 + pending;
}

int main(int argc, char **argv) {
  long total = 0;
  for (int i = 1; i < argc; ++i)
    total += count(argv[i]);
  printf("%ld %.2f\n", total, (double)total / 7.0);
  printf("closed %d\n", close_like(stdout));
  return (int)(total & 0x3f);
}
