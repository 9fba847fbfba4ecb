/* Calls each protected sample and its deobfuscated, brightened version (b_obf_<name>, from
   `hoist lift --deobfuscate --brighten --emit obj`) on random inputs and compares the
   results and what they write to stdout (the imports they call, in order, with their
   arguments). Prints one line per sample; exits 1 on any difference. */
#include "samples.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEXT_INPUT_TYPE long
#include "next-input.h"

/* The hardened half of run-samples.sh (the VM programs built with the stack protector, CET
   and PIE) checks the VM programs alone. */
#ifdef VM_SAMPLES_ONLY
#undef DEOBFUSCATION_SAMPLES
#define DEOBFUSCATION_SAMPLES VM_PIE_SAMPLES
#endif

/* The globals a program sets before it calls a VM (vm.h's G(name, value)), and the
   brightened functions' copies of them (b_<name>, absent when no brightened function reads
   the global). Every other input runs with the global as the file has it (0), the rest with
   the value the program sets. */
#define G(name, value) extern long name; extern long b_##name __attribute__((weak));
VM_GLOBALS
#undef G
static void set_globals(int set) {
#define G(name, value)        \
  name = set ? (value) : 0;   \
  if (&b_##name)              \
    b_##name = name;
  VM_GLOBALS
#undef G
  (void)set;
}

#define X(name) long obf_##name(long, long); long b_obf_##name(long, long);
DEOBFUSCATION_SAMPLES
#undef X

/* Runs f(a, b) with stdout sent to a file; returns the result and what it wrote. */
static long capture(long (*f)(long, long), long a, long b, char *out, size_t size) {
  fflush(stdout);
  FILE *file = tmpfile();
  int saved = dup(1);
  dup2(fileno(file), 1);
  long result = f(a, b);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  rewind(file);
  size_t n = fread(out, 1, size - 1, file);
  out[n] = 0;
  fclose(file);
  return result;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 2000;
  int failed = 0;
  static char want[65536], got[65536];
#define X(name)                                                                          \
  {                                                                                      \
    int differ = 0;                                                                      \
    for (int i = 0; i < runs && !differ; ++i) {                                          \
      long a = next_input(), b = next_input();                                           \
      set_globals(i & 1);                                                                \
      long r1 = capture(obf_##name, a, b, want, sizeof want);                            \
      long r2 = capture(b_obf_##name, a, b, got, sizeof got);                            \
      if (r1 != r2 || strcmp(want, got) != 0) {                                          \
        printf(#name ": DIFFER on (%ld, %ld): %ld vs %ld, output '%s' vs '%s'\n", a, b,  \
               r1, r2, want, got);                                                       \
        differ = 1;                                                                      \
      }                                                                                  \
    }                                                                                    \
    if (!differ)                                                                         \
      printf(#name ": equal on %d inputs\n", runs);                                      \
    failed |= differ;                                                                    \
  }
  DEOBFUSCATION_SAMPLES
#undef X
  return failed;
}
