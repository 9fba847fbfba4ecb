// Where rsp is, relative to a function's entry, at the branches of the function: what tells a
// jump inside a function's frame (gcc's `.cold` part, entered with the frame on the stack) from
// a tail call, which jumps after the epilogue.
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "hoist/Image.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace hoist {

/// Visits each instruction of `function`'s blocks reached from its entry, once per block, with
/// rsp just before it relative to its value at the entry: followed over pushes, pops and
/// constant adjustments (`sub rsp, N`, `lea rsp, [rsp+N]`); nullopt where any other write of rsp
/// (`leave`, `lea rsp, [rbp-N]`) comes first or where the ways in disagree (a block that a later
/// way reaches at another depth is visited again, with nullopt).
void forEachInstructionWithStackDepth(
    const Image &image, const DiscoveredFunction &function,
    llvm::function_ref<void(const Instr &, std::optional<int64_t>)> visit);

/// rsp relative to its value at the entry of `function`, just before each direct jmp or jcc of
/// the function to `target`: followed from the entry over pushes, pops and constant
/// adjustments (`sub rsp, N`, `lea rsp, [rsp+N]`); nullopt where any other write of rsp
/// (`leave`, `lea rsp, [rbp-N]`) comes first or where the ways in disagree.
std::vector<std::optional<int64_t>>
stackDepthsAtJumpsTo(const Image &image, const DiscoveredFunction &function, uint64_t target);

} // namespace hoist
