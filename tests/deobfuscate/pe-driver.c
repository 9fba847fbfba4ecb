/* The PE half of the deobfuscation samples (run-samples.sh): loads the mingw build of the
   VM-protected programs with tests/brighten/pe-loader.c, calls each protected function
   (obf_<name>, ms_abi, in the image) and its deobfuscated, brightened version (b_obf_<name>,
   win64cc, from `hoist lift --deobfuscate --brighten --emit obj`) on random inputs, and
   compares their results and the console output they produce: the imports GetStdHandle,
   strlen and WriteConsoleA are stand-ins here that log every call with its arguments, so the
   log is equal only if both call the imports in the same order with the same arguments.
   Prints one line per sample; exits 1 on any difference. */
#include "pe-loader.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm.h"

#define NEXT_INPUT_TYPE int32_t
#include "next-input.h"

#define ABI __attribute__((ms_abi))
/* `long` is 32 bits on Win64. */
#define X(name) static int32_t(ABI *obf_##name)(int32_t, int32_t); \
  int32_t b_obf_##name(int32_t, int32_t) ABI __attribute__((weak));
VM_SAMPLES
#undef X

/* pe-symbols.c, written by run-samples.sh from the image's symbols; ends with a null name. */
extern const struct pe_symbol pe_symbols[];

static char log_text[65536];
static size_t log_size;
static void log_append(const char *text, size_t n) {
  if (log_size + n >= sizeof log_text)
    n = sizeof log_text - 1 - log_size;
  memcpy(log_text + log_size, text, n);
  log_size += n;
  log_text[log_size] = 0;
}

/* The imports, in the Microsoft x64 ABI as the DLLs have them (the image's calls are bound to
   them, the brightened functions' calls renamed to them). A handle is a made-up pointer. */
ABI void *pe_import_GetStdHandle(uint32_t which) {
  char line[64];
  snprintf(line, sizeof line, "[GetStdHandle %d]", (int)which);
  log_append(line, strlen(line));
  return (void *)(uintptr_t)(0x1000 + (which & 0xff));
}
ABI int pe_import_WriteConsoleA(void *handle, const void *text, uint32_t count,
                                uint32_t *written, void *reserved) {
  char line[64];
  snprintf(line, sizeof line, "[WriteConsoleA %p %u %p:", handle, count, reserved);
  log_append(line, strlen(line));
  log_append(text, count);
  log_append("]", 1);
  if (written)
    *written = count;
  return 1;
}
ABI size_t pe_import_strlen(const char *s) { return strlen(s); }
static const struct pe_binding bindings[] = {
    {"GetStdHandle", (void *)pe_import_GetStdHandle},
    {"WriteConsoleA", (void *)pe_import_WriteConsoleA},
    {"strlen", (void *)pe_import_strlen},
    {0, 0}};
/* The globals a program sets before it calls a VM (vm.h's G(name, value)): the image's, found
   by symbol, and the brightened functions' copies (b_<name>, absent when no brightened
   function reads the global). Every other input runs with the global as the file has it
   (0), the rest with the value the program sets. `long` is 32 bits on Win64. */
#define G(name, value) extern int32_t b_##name __attribute__((weak));
VM_GLOBALS
#undef G
static void set_globals(const struct pe_image *image, int set) {
#define G(name, value)                                                     \
  {                                                                        \
    int32_t *global = pe_symbol_address(image, pe_symbols, #name);         \
    if (!global)                                                           \
      exit(2);                                                             \
    *global = set ? (value) : 0;                                           \
    if (&b_##name)                                                         \
      b_##name = *global;                                                  \
  }
  VM_GLOBALS
#undef G
  (void)image, (void)set;
}

static void *image_function(const struct pe_image *image, const char *name) {
  void *function = pe_symbol_address(image, pe_symbols, name);
  if (!function)
    exit(2);
  return function;
}

int main(int argc, char **argv) {
  struct pe_image image;
  if (argc < 2 || pe_load(argv[1], bindings, (void *)pe_unbound_import, &image))
    return 2;
  int runs = argc > 2 ? atoi(argv[2]) : 2000;
  int failed = 0;
  static char want[sizeof log_text];
#define X(name)                                                                          \
  {                                                                                      \
    obf_##name = (int32_t(ABI *)(int32_t, int32_t))image_function(&image, "obf_" #name); \
    int differ = !b_obf_##name;                                                          \
    if (differ)                                                                          \
      printf("pe_" #name ": NOT BRIGHTENED (see the lift's warnings)\n");                \
    for (int i = 0; i < runs && !differ; ++i) {                                          \
      int32_t a = next_input(), b = next_input();                                        \
      set_globals(&image, i & 1);                                                        \
      log_size = 0, log_text[0] = 0;                                                     \
      int32_t r1 = obf_##name(a, b);                                                     \
      memcpy(want, log_text, log_size + 1);                                              \
      log_size = 0, log_text[0] = 0;                                                     \
      int32_t r2 = b_obf_##name(a, b);                                                   \
      if (r1 != r2 || strcmp(want, log_text) != 0) {                                     \
        printf("pe_" #name ": DIFFER on (%d, %d): %d vs %d, calls '%s' vs '%s'\n", a, b, \
               r1, r2, want, log_text);                                                  \
        differ = 1;                                                                      \
      }                                                                                  \
    }                                                                                    \
    if (!differ)                                                                         \
      printf("pe_" #name ": equal on %d inputs\n", runs);                                \
    failed |= differ;                                                                    \
  }
  VM_SAMPLES
#undef X
  return failed;
}
