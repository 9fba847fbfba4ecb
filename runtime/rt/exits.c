/* hoist-rt: the functions lifted code calls where control leaves what Hoist lifted
 * (lib/Lift/Intrinsics.h), for an object of `hoist lift --emit obj` linked into a program of
 * its own. Each says which address it stands for and aborts: the program cannot go on where
 * the machine code would have, and a core dump at the right place beats running on. A
 * program made by `hoist translate` links its own runtime instead (runtime/calls.c), which
 * carries these calls out. */
#include "hoist/Exception.h"
#include "hoist/State.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void stop(const char *what, uint64_t address, const char *details) {
  fprintf(stderr, "hoist-rt: %s 0x%" PRIx64 "%s; aborting\n", what, address, details);
  fflush(stderr);
  abort();
}

/* An indirect jmp nothing resolved (or a return to somewhere else than the caller): `target`
 * is where the machine code would have gone. */
void __hoist_jmp(HoistState *state, void *memory, uint64_t target) {
  (void)state, (void)memory;
  stop("unresolved jump to", target, " (no lifted code is linked for it)");
}

/* A call whose callee was not lifted: `target` is the callee's address. */
void __hoist_call(HoistState *state, void *memory, uint64_t target) {
  (void)state, (void)memory;
  stop("call of", target, ", which was not lifted (lift it too, or use hoist translate)");
}

/* A fault: State.EXCEPTION holds its vector (hoist/Exception.h). */
void __hoist_trap(HoistState *state, void *memory, uint64_t address) {
  (void)memory;
  char details[64];
  snprintf(details, sizeof details, " (exception vector %u, the kernel's signal %d)",
           (unsigned)state->EXCEPTION, hoist_exception_signal(state->EXCEPTION));
  stop("fault at", address, details);
}

/* An instruction without semantics in Hoist. */
void __hoist_unsupported(HoistState *state, void *memory, uint64_t address) {
  (void)state, (void)memory;
  stop("no semantics for the instruction at", address, "");
}
