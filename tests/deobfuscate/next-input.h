/* The random inputs the deobfuscation drivers (driver.c, pe-driver.c) call the samples with:
   a xorshift64 sequence, one of eight inputs a small value or loop count, one its negative,
   one zero, the rest the whole state, as a NEXT_INPUT_TYPE (long on Linux, int32_t for the
   Win64 samples, whose `long` is 32 bits). Both drivers draw the same sequence. */
#include <stdint.h>

#ifndef NEXT_INPUT_TYPE
#error "define NEXT_INPUT_TYPE to the samples' argument type before including next-input.h"
#endif

static uint64_t next_input_state = 0x9e3779b97f4a7c15ull;
static NEXT_INPUT_TYPE next_input(void) {
  uint64_t state = next_input_state;
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  next_input_state = state;
  switch (state % 8) {
  case 0: return (NEXT_INPUT_TYPE)(state % 16);            /* small values and loop counts */
  case 1: return -(NEXT_INPUT_TYPE)(state % 16);
  case 2: return 0;
  default: return (NEXT_INPUT_TYPE)state;
  }
}
