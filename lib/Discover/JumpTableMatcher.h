// Recognizes jump tables by cheap pattern analysis over the decoded instructions that lead to an
// indirect jmp (no IR, no value analysis): the shapes gcc, clang, MSVC and mingw emit, with the
// table size from the dominating unsigned compare (or and-mask) of the index.
#pragma once

#include "Discover/FunctionExplorer.h"
#include "Discover/JumpTable.h"
#include "hoist/Image.h"
#include "hoist/Options.h"

#include <optional>

namespace hoist {

/// The table the indirect jmp ending `block` (a block of `function`) reads its target from, if
/// the instructions on every path of predecessors leading there show one. `extentEnd` (0 when
/// unknown) is where the function's unwind range ends: a table sized only by the constants
/// that reach its index extends over the entries that land in [entry, extentEnd).
std::optional<JumpTable> matchJumpTable(const Image &image, InstructionCache &cache,
                                        const ExploredFunction &function,
                                        const MachineBlock &block, const LiftOptions &options,
                                        uint64_t extentEnd = 0);

} // namespace hoist
