// `hoist cfg --dot`: the control flow discovery recovers as a Graphviz graph, for reading
// control flow as reverse engineers do (docs/CFG.md, "Graphs").
#pragma once

#include "Discover/ProgramDiscovery.h"
#include "hoist/Image.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <map>
#include <set>

namespace hoist {

struct CfgDotOptions {
  /// The functions drawn as clusters; empty: every function. A callee left out is a node of
  /// its own, as one discovery did not explore.
  std::set<uint64_t> only = {};
  /// Gives each block's node the id `block_<hex>` (its start), kept in SVG: `hoist report`
  /// highlights a block by it.
  bool blockIds = false;
  /// An edge per call, to its callee. Without them a function drawn alone lays out in a
  /// fraction of the time: an edge from a block far down to a callee's node spans every rank
  /// between them, and ls's main (325 blocks, 152 calls) took Graphviz 15 s with them, 0.8 s
  /// without.
  bool calls = true;
};

/// Writes `functions` (discovery's, by entry) as a Graphviz digraph: a cluster per function, a
/// node per basic block labelled with its address and its instructions, and an edge per
/// control transfer, styled by its kind (fallthrough, taken, not taken, jump, jump-table case,
/// computed, call, tail call, unresolved). Each edge's `class` attribute names its kind, so it
/// survives into SVG.
void writeCfgDot(const Image &image, const std::map<uint64_t, DiscoveredFunction> &functions,
                 llvm::raw_ostream &out, const CfgDotOptions &options = {});

} // namespace hoist
