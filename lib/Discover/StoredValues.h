// The values a global variable of the program can hold, when its code only ever stores
// constants to it: a switch over a static global that is set to enum constants only, whose
// range check clang-19 leaves out (diffutils' cmp, `switch (comparison_type)`).
#pragma once

#include "hoist/Image.h"

#include <cstdint>
#include <optional>
#include <set>

namespace hoist {

/// The values the `bytes` bytes at `address` (a writable global) can hold: its initial value
/// and every constant a `mov [address], imm` of that width in the executable code stores.
/// Nullopt when anything else may write it: another store to it (a register, a
/// read-modify-write, a wider or narrower store), its address taken in code (`lea`, an
/// immediate) or in data (a pointer, a relocation), another module (an exported or copied
/// symbol). The code is not explored but scanned: every 4-byte field of the executable
/// sections that, as a RIP-relative displacement (or, in a position-dependent image, an
/// absolute address), reaches the variable is decoded from each possible instruction start
/// before it, so no reference escapes, whatever discovery has found so far.
std::optional<std::set<uint64_t>> storedValues(const Image &image, uint64_t address,
                                               unsigned bytes);

} // namespace hoist
