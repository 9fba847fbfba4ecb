/* Runs fn_1000 of an object from `hoist lift --raw --base 0x1000 --emit obj` (the sequences of
 * emit-obj-zero-extension.test and emit-obj-narrowed-division.test) from fixed states and
 * prints RAX and RBX afterwards, so the tests can compare them with what the CPU computes. */
#include "hoist/State.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void fn_1000(HoistState *state, uint8_t *memory);

int main(void) {
  static const uint64_t inputs[][3] = {/* RCX, R11, RBX */
                                       {0x1234567887654321u, 0x75faa3e05e69cd47u, 5},
                                       {0xffffffffffffffffu, 0xffffffffffffff80u, 0},
                                       {3, 0x0000000100000002u, 0xffffffffffffffffu}};
  static uint64_t stack[16];
  for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; ++i) {
    static HoistState state;
    memset(&state, 0, sizeof state);
    state.RAX = 0xdeadbeefcafef00du;
    state.RCX = inputs[i][0];
    state.R11 = inputs[i][1];
    state.RBX = inputs[i][2];
    state.RSP = (uint64_t)&stack[8];   /* the return address `ret` pops */
    fn_1000(&state, 0);   /* memory 0: addresses are host addresses */
    printf("rax=0x%016" PRIx64 " rbx=0x%016" PRIx64 "\n", state.RAX, state.RBX);
  }
  return 0;
}
