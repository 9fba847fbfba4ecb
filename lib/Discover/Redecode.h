// A function as program discovery leaves it (ProgramCfg: blocks with their extents and edges,
// jump tables, no instructions), made liftable again by decoding its blocks' bytes: no
// exploration, no jump-table matching, no value analysis. The lifter used to explore every
// function again after discovery had done it, which was a third of its time, and kept every
// decoded instruction of the program alive in its cache.
#pragma once

#include "Decode/Decoder.h"
#include "Discover/FunctionExplorer.h"
#include "hoist/Image.h"

#include <memory>
#include <optional>
#include <vector>

namespace hoist {

struct RedecodedFunction {
  /// The discovered function; its blocks' `instrs` point into `instructions`.
  ExploredFunction explored;
  /// Owned here, freed with the function once it is lifted. A unique_ptr, so that moving the
  /// RedecodedFunction never moves the instructions the blocks point to.
  std::unique_ptr<std::vector<Instr>> instructions;
};

/// `discovered`'s blocks with their instructions decoded again, or nothing when a block's bytes
/// do not decode into exactly its extent (which discovery's own decoding rules out; the caller
/// then explores the function itself).
std::optional<RedecodedFunction> redecode(const Image &image, const Decoder &decoder,
                                          const ExploredFunction &discovered);

} // namespace hoist
