/* Runs one lifted function twice, unoptimized (fn_unoptimized) and through Hoist's pipeline
 * (fn_optimized), from the same states, and compares the general-purpose registers, RIP and the
 * status flags afterwards (pipeline-differential.test). The states mix random values with the
 * boundaries where comparisons and overflow change their answers. */
#include "hoist/State.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void fn_unoptimized(HoistState *state, uint8_t *memory);
void fn_optimized(HoistState *state, uint8_t *memory);

void __hoist_ret(HoistState *state, uint8_t *memory, uint64_t address) {}

/* A deterministic stand-in for the CPU: reads EAX and ECX, writes RAX..RDX (as CPUID does). */
void __hoist_cpuid(HoistState *state, uint8_t *memory, uint64_t address) {
  uint32_t leaf = (uint32_t)state->RAX, subleaf = (uint32_t)state->RCX;
  state->RAX = leaf * 3u + subleaf;
  state->RBX = leaf ^ subleaf;
  state->RCX = subleaf + 1u;
  state->RDX = leaf - subleaf;
}

static uint64_t random_state = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void) {
  random_state ^= random_state << 13;
  random_state ^= random_state >> 7;
  random_state ^= random_state << 17;
  return random_state;
}

static const uint64_t boundaries[] = {
    0, 1, 2, 3, 5, 6, 7, 8, 100, 101, (uint64_t)-1, (uint64_t)-2, (uint64_t)-3, (uint64_t)-4,
    (uint64_t)-7, (uint64_t)-8, 0x7f, 0x80, 0x7fff, 0x8000, 0x8064, 0x7fffffff, 0x80000000,
    0x80000005, 0xffffffff, 0x7fffffffffffffffu, 0x8000000000000000u, 0x8000000000000006u};

static uint64_t interesting(void) {
  uint64_t pick = next_random();
  if (pick % 3 == 0)
    return next_random();
  uint64_t value = boundaries[(pick >> 8) % (sizeof boundaries / sizeof boundaries[0])];
  /* Same low bits, other high bits: narrow compares must ignore them. */
  return pick % 3 == 1 ? value : value ^ (next_random() << 32);
}

enum { StackOffset = 2048, MemorySize = 4096 };
static uint8_t memory_unoptimized[MemorySize], memory_optimized[MemorySize];

int main(void) {
  /* GPRs, RIP and the seven flag bytes are one contiguous prefix of HoistState. */
  const size_t compared = offsetof(HoistState, OF) + 1;
  for (int run = 0; run < 200000; ++run) {
    HoistState a;
    memset(&a, 0, sizeof a);
    uint64_t *gprs = &a.RAX;
    for (int i = 0; i < 16; ++i)
      gprs[i] = interesting();
    a.RSP = StackOffset;
    a.CF = next_random() & 1;
    a.ZF = next_random() & 1;
    a.SF = next_random() & 1;
    a.OF = next_random() & 1;
    uint64_t return_address = next_random();
    memcpy(memory_unoptimized + StackOffset, &return_address, 8);
    memcpy(memory_optimized + StackOffset, &return_address, 8);
    HoistState b = a;
    fn_unoptimized(&a, memory_unoptimized);
    fn_optimized(&b, memory_optimized);
    if (memcmp(&a, &b, compared) != 0) {
      printf("mismatch in run %d\n", run);
      for (int i = 0; i < 16; ++i)
        printf("gpr %d: %016llx %016llx\n", i, (unsigned long long)(&a.RAX)[i],
               (unsigned long long)(&b.RAX)[i]);
      printf("flags CF ZF SF OF: %d%d%d%d %d%d%d%d\n", a.CF, a.ZF, a.SF, a.OF, b.CF, b.ZF, b.SF,
             b.OF);
      return 1;
    }
  }
  puts("optimized and unoptimized agree");
  return 0;
}
