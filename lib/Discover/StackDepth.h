// Where rsp is, relative to a function's entry, at the branches of the function: what tells a
// jump inside a function's frame (gcc's `.cold` part, entered with the frame on the stack) from
// a tail call, which jumps after the epilogue.
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "hoist/Image.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace hoist {

/// rsp relative to its value at the entry of `function`, just before each direct jmp or jcc of
/// the function to `target`: followed from the entry over pushes, pops and constant
/// adjustments (`sub rsp, N`, `lea rsp, [rsp+N]`); nullopt where any other write of rsp
/// (`leave`, `lea rsp, [rbp-N]`) comes first or where the ways in disagree.
std::vector<std::optional<int64_t>>
stackDepthsAtJumpsTo(const Image &image, const DiscoveredFunction &function, uint64_t target);

} // namespace hoist
