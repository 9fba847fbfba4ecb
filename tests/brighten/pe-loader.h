/* A minimal loader for x86-64 PE executables, so that the brightening corpus can call the
 * functions of a mingw build natively on Linux (through ms_abi function pointers): maps the
 * image, applies base relocations when it cannot sit at its preferred base, and binds its
 * imports by name to the given functions (ms_abi wrappers of the host's C library). Never
 * runs the image's own start-up code. */
#ifndef HOIST_PE_LOADER_H
#define HOIST_PE_LOADER_H

#include <stdint.h>

struct pe_binding {
  const char *name;   /* the imported name */
  void *function;     /* an ms_abi function */
};

struct pe_image {
  uint8_t *base;            /* where the image is mapped */
  uint64_t preferred_base;  /* its ImageBase: a virtual address A is at base + (A - this) */
};

/* Loads the PE at `path`. Imports not in `bindings` (terminated by a null name) are bound to
 * `unbound`. Returns 0, or -1 with a message on stderr. */
int pe_load(const char *path, const struct pe_binding *bindings, void *unbound,
            struct pe_image *image);

/* A symbol's name and virtual address (from the image's COFF symbols, by nm). */
struct pe_symbol {
  const char *name;
  uint64_t address;
};

/* The loaded address of virtual address `address` of the image. */
void *pe_address(const struct pe_image *image, uint64_t address);

/* The loaded address of the symbol `name` among `symbols` (ended by a null name); NULL, with a
 * message, if it is not there. */
void *pe_symbol_address(const struct pe_image *image, const struct pe_symbol *symbols,
                        const char *name);

/* What to bind the imports a test does not provide to: reports the call and aborts. */
__attribute__((ms_abi)) void pe_unbound_import(void);

#endif
