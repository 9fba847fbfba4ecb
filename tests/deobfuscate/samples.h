/* The deobfuscation samples: X(name) for each pair obf_<name> (protected) and plain_<name>
   (the same computation, unprotected), both `long f(long, long)`. */
#define DEOBFUSCATION_SAMPLES \
  X(pushret)                  \
  X(callpop)                  \
  X(overlap)                  \
  X(opaque)                   \
  X(inline)                   \
  X(retaddr)
