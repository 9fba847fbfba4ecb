// How many of the six integer argument registers a library function reads. An Integer-shaped
// import call (ImportShapes.h) passes rdi..r9 from State; every register passed is a guest value
// the caller must keep until the call, so a loop calling `__ctype_b_loc` (no argument) per
// character carried its guest rsi, rdx, rcx, r8 and r9 around the loop for nothing. Knowing the
// prototype, the call passes only what the function reads and leaves the other registers
// undefined, as the machine code it replaces did (a callee never reads a register that is
// not one of its arguments).
#pragma once

#include <llvm/ADT/StringRef.h>

namespace hoist {

/// The number of integer or pointer arguments of the glibc function `name` (0 to 6) when its
/// prototype is known and fixed (not variadic), 6 for every other name.
unsigned integerArgumentsRead(llvm::StringRef name);

} // namespace hoist
