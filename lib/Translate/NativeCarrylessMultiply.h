// The lifter writes pclmulqdq out as generic IR (lib/Semantics/SimdCrypto.cpp: the XOR of the
// first operand shifted by every set bit of the second), which keeps `hoist lift` output
// portable and exact but costs a few dozen vector instructions per multiply: a CRC loop built
// on pclmulqdq (coreutils' cksum) runs ~9x slower than the original. A translation is compiled
// for the CPU that translates it (HostObject.h), so there the generic product can become the
// instruction again.
#pragma once

#include <llvm/IR/Module.h>

namespace hoist {

/// Whether the CPU running Hoist has pclmulqdq (the translation is compiled for it).
bool hostHasCarrylessMultiply();

/// Replaces each half of a generic carry-less product in `module` (`reduce.xor(select(bits of
/// b, shl(splat a, <0..63>), 0))` for the low qword, the same with `fshl(0, splat a, <0..63>)`
/// for the high one) with the qword of `llvm.x86.pclmulqdq` it equals. The original executed
/// pclmulqdq at that point, so the translation needs no more of the machine than the original
/// path did. Returns the number of halves replaced.
unsigned useNativeCarrylessMultiply(llvm::Module &module);

} // namespace hoist
