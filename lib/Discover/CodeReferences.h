// Where the program's code refers into a range of its data: a jump table whose end was
// inferred from its entries (JumpTable::endInferred) must stop where another object the code
// addresses begins (the next switch's table, placed right after it).
#pragma once

#include "hoist/Image.h"

#include <cstdint>
#include <optional>

namespace hoist {

/// The lowest address in [begin, end) that a 4-byte field of the executable sections (outside
/// the range itself) reaches as a RIP-relative displacement ending its instruction, after a
/// ModRM that says so (`lea rdx, [rip+T]`), or, in a position-dependent image, as the
/// displacement of a ModRM and SIB without a base (`jmp [T+rax*8]`). The code is scanned, not
/// decoded: a field that only looks like such a reference makes the answer lower, never
/// higher, so a table cut there is never longer than the data before the next object.
std::optional<uint64_t> firstCodeReference(const Image &image, uint64_t begin, uint64_t end);

} // namespace hoist
