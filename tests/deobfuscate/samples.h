/* The deobfuscation samples: X(name) for each pair obf_<name> (protected) and plain_<name>
   (the same computation, unprotected), both `long f(long, long)`: the tricks of samples.S,
   the loops of loops.c, and the VM-protected programs vmprotect.py generates (vm.h). */
#include "vm.h"

#define DEOBFUSCATION_SAMPLES \
  X(pushret)                  \
  X(callpop)                  \
  X(overlap)                  \
  X(opaque)                   \
  X(inline)                   \
  X(retaddr)                  \
  X(loop)                     \
  X(nested)                   \
  X(popcount)                 \
  X(loop_o2)                  \
  X(nested_o2)                \
  X(popcount_o2)              \
  X(bufputs)                  \
  X(bufputs_o2)               \
  VM_SAMPLES
