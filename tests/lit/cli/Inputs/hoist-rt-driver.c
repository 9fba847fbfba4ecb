/* Enters lifted raw code (tests/lit/cli/hoist-rt.test) with RDI = 0x5eed and a stack; each
   entry leaves through a function of hoist-rt, which aborts. */
#include "hoist/State.h"

#include <stdio.h>
#include <string.h>

void fn_1000(HoistState *state, void *memory); /* mov rax, rdi; jmp rax */
void fn_1010(HoistState *state, void *memory); /* ud2 */
void fn_1020(HoistState *state, void *memory); /* call rdi; ret */

int main(int argc, char **argv) {
  static uint64_t stack[1024];
  HoistState state;
  memset(&state, 0, sizeof state);
  state.RSP = (uint64_t)&stack[1000];
  state.RDI = 0x5eed;
  const char *path = argc > 1 ? argv[1] : "";
  if (!strcmp(path, "jmp"))
    fn_1000(&state, 0);
  else if (!strcmp(path, "trap"))
    fn_1010(&state, 0);
  else if (!strcmp(path, "call"))
    fn_1020(&state, 0);
  printf("returned from the lifted code\n");
  return 0;
}
