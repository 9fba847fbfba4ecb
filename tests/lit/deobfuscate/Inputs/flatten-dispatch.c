/* Flattened control flow as a source-level flattener writes it (docs/DEOBFUSCATE.md,
   "Flattening"): a loop over a switch on a state, the next state chosen by each case and
   hidden from gcc's jump threading by an empty asm. With dense states gcc -O2 compiles the
   dispatcher into a jump table (the state of a branch a cmov, so the table's index is one of
   two constants); with sparse states into a binary search of comparisons. */
#define FLATTENED(name, S_START, S_TEST, S_BODY, S_STEP, S_AFTER, S_SMALL, S_BIG)          \
  long name(long x, long n) {                                                            \
    long acc = 0, i = 0;                                                                 \
    unsigned s = S_START;                                                                \
    for (;;) {                                                                           \
      __asm__("" : "+r"(s));                                                             \
      switch (s) {                                                                       \
      case S_START: acc = x * 3; s = S_TEST; break;                                      \
      case S_TEST: s = i < (n & 7) ? S_BODY : S_AFTER; break;                            \
      case S_BODY: acc += i ^ x; s = S_STEP; break;                                      \
      case S_STEP: i += 1; s = S_TEST; break;                                            \
      case S_AFTER: s = acc < 100 ? S_SMALL : S_BIG; break;                              \
      case S_SMALL: return acc + 1;                                                      \
      case S_BIG: return acc - 1;                                                        \
      default: __builtin_trap();                                                         \
      }                                                                                  \
    }                                                                                    \
  }

FLATTENED(flat_table, 7u, 3u, 5u, 9u, 4u, 8u, 6u)
FLATTENED(flat_search, 0x9e3779b9u, 0x1234567u, 0x7f4a7c15u, 0xdeadbeefu, 0x3c6ef372u,
          0xa54ff53au, 0x510e527fu)

int main(void) { return (int)flat_table(1, 2) + (int)flat_search(3, 4); }
