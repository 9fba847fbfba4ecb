/* The segment selectors of the running process into a State, as `mov r/m, Sreg` in lifted
 * code reads them (State.def): the translation runtime fills its initial State with them, the
 * differential harness each lifted run's. C, for both. */
#ifndef HOIST_SELECTORS_H
#define HOIST_SELECTORS_H

#include "hoist/State.h"

static inline void hoist_read_selectors(HoistState *state) {
  __asm__ volatile("mov %%es, %0\n\tmov %%cs, %1\n\tmov %%ss, %2\n\t"
                   "mov %%ds, %3\n\tmov %%fs, %4\n\tmov %%gs, %5"
                   : "=m"(state->ES), "=m"(state->CS), "=m"(state->SS), "=m"(state->DS),
                     "=m"(state->FS), "=m"(state->GS));
}

#endif
