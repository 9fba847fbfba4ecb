// A function as program discovery leaves it (ProgramCfg: blocks with their extents and edges,
// jump tables, no instructions), made liftable again by decoding its blocks' bytes: no
// exploration, no jump-table matching, no value analysis. The lifter used to explore every
// function again after discovery had done it, which was a third of its time, and kept every
// decoded instruction of the program alive in its cache.
#pragma once

#include "Decode/Decoder.h"
#include "Discover/FunctionExplorer.h"
#include "hoist/Image.h"

#include <optional>
#include <vector>

namespace hoist {

/// `discovered`'s blocks with their instructions decoded again into `buffer` (cleared first;
/// the blocks' `instrs` point into it, so it must outlive the result and not change while the
/// result is used), or nothing when a block's bytes do not decode into exactly its extent
/// (which discovery's own decoding rules out; the caller then explores the function itself).
/// One buffer reused for every function spares an allocation, the copies of a growing vector
/// and fresh pages per function.
std::optional<ExploredFunction> redecode(const Image &image, const Decoder &decoder,
                                         const ExploredFunction &discovered,
                                         std::vector<Instr> &buffer);

} // namespace hoist
