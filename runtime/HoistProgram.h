/* What `hoist translate` puts into a translated executable for its runtime (this folder) to
 * start the program: the original image's segments, its dynamic relocations, the table from
 * original function addresses to lifted code, and the program's init and fini functions.
 *
 * lib/Translate/ProgramTables.cpp emits `hoist_program` with exactly this layout: every field is
 * a pointer or a uint64_t, so the IR struct is a plain list of ptr and i64. */
#ifndef HOIST_PROGRAM_H
#define HOIST_PROGRAM_H

#include "hoist/State.h"

#include <stdint.h>

typedef void (*HoistLiftedFunction)(HoistState *state, void *memory);

/* A PT_LOAD segment at its (biased) address. */
typedef struct HoistSegment {
  uint64_t address;
  uint64_t memorySize;
  uint64_t fileSize;
  const uint8_t *bytes; /* fileSize bytes */
  uint64_t prot;        /* PROT_READ | PROT_WRITE | PROT_EXEC */
} HoistSegment;

enum HoistRelocationKind {
  HOIST_RELOCATION_VALUE = 0,     /* *address = value (RELATIVE, or a symbol of the image) */
  HOIST_RELOCATION_SYMBOL = 1,    /* *address = the library symbol + value (GLOB_DAT, JUMP_SLOT, 64) */
  HOIST_RELOCATION_COPY = 2,      /* value bytes of the library's variable live at address */
  HOIST_RELOCATION_IRELATIVE = 3, /* *address = the lifted resolver at value, called */
  /* *address = the library's thread-local symbol + value, from the guest thread pointer */
  HOIST_RELOCATION_THREAD_POINTER_OFFSET = 4,
};

typedef struct HoistRelocation {
  uint64_t kind;
  uint64_t address;
  uint64_t value;
  const char *symbol;  /* SYMBOL, COPY and THREAD_POINTER_OFFSET */
  const char *version; /* the symbol's version ("GLIBC_2.2.5"), or null */
  uint64_t weak;       /* an undefined weak symbol may stay 0 */
} HoistRelocation;

/* A lifted function, by original address (sorted). patchRoom: how many bytes from its entry
 * belong to it alone (the entry is patched to jump into lifted code when there are 5). */
typedef struct HoistFunction {
  uint64_t address;
  HoistLiftedFunction lifted;
  uint64_t patchRoom;
} HoistFunction;

typedef struct HoistProgram {
  const char *path; /* the original program, for messages */
  uint64_t entry;
  const HoistSegment *segments;
  uint64_t segmentCount;
  const HoistRelocation *relocations;
  uint64_t relocationCount;
  const HoistFunction *functions;
  uint64_t functionCount;
  uint64_t preinitArray, preinitCount;
  uint64_t init, initArray, initCount;
  uint64_t fini, finiArray, finiCount;
  /* The program's thread-local variables (PT_TLS): the initial image at tlsImage (tlsFileSize
   * bytes, then zeros) of each thread's block, the tlsBlockSize bytes right below its guest
   * thread pointer, which is tlsThreadPointerOffset bytes into hoist_guest_thread_block
   * (runtime/threads.c). */
  uint64_t tlsImage, tlsFileSize, tlsBlockSize, tlsThreadPointerOffset;
} HoistProgram;

extern const HoistProgram hoist_program;

#endif
