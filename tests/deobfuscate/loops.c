/* Loops whose trip count is symbolic, for `hoist lift --deobfuscate`: generalized into phi
   form at their header instead of unrolled. Compiled twice, as obf_<name> (lifted with
   --deobfuscate) and with -DPREFIX=plain_ as plain_<name> (lifted without): the same code.
   The loop state is in stack slots in the plain functions (the file is built at -O0) and in
   registers in the _o2 ones. bufputs checks that a buffer an import reads keeps its stores. */
#include <stdio.h>

#ifndef PREFIX
#define PREFIX obf_
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define NAME(name) CAT(PREFIX, name)

#define LOOPS(suffix, attributes)                                                        \
  attributes long NAME(loop##suffix)(long n, long k) {                                   \
    long s = 0;                                                                          \
    for (long i = 0; i < (n & 255); i++)                                                 \
      s += i * k ^ (s >> 3);                                                             \
    return s;                                                                            \
  }                                                                                      \
  attributes long NAME(nested##suffix)(long n, long k) {                                 \
    long s = 0;                                                                          \
    for (long i = 0; i < (n & 15); i++)                                                  \
      for (long j = 0; j < (k & 7); j++)                                                 \
        s += i * j + 1;                                                                  \
    return s;                                                                            \
  }                                                                                      \
  attributes long NAME(popcount##suffix)(long n, long k) {                               \
    long c = 0;                                                                          \
    for (unsigned long x = (unsigned long)n; x; x &= x - 1)                              \
      c += k;                                                                            \
    return c;                                                                            \
  }                                                                                      \
  /* A local buffer filled by a loop and given to an import: its stores must stay. */    \
  attributes long NAME(bufputs##suffix)(long n, long k) {                                \
    char buf[16];                                                                        \
    long length = 2 + (n & 7);                                                           \
    buf[0] = (char)('A' + (k & 7));                                                      \
    buf[1] = '-';                                                                        \
    for (long i = 2; i < length; i++)                                                    \
      buf[i] = (char)('a' + ((k + i) & 15));                                             \
    buf[length] = 0;                                                                     \
    puts(buf);                                                                           \
    return length + k;                                                                   \
  }

LOOPS(, )
LOOPS(_o2, __attribute__((optimize("O2"))))
