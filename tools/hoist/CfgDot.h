// `hoist cfg --dot`: the control flow discovery recovers as a Graphviz graph, for reading
// control flow as reverse engineers do (docs/CFG.md, "Graphs").
#pragma once

#include "Discover/ProgramDiscovery.h"
#include "hoist/Image.h"

#include <llvm/Support/raw_ostream.h>

namespace hoist {

/// Writes `cfg` as a Graphviz digraph: a cluster per function, a node per basic block labelled
/// with its address and its instructions, and an edge per control transfer, styled by its kind
/// (fallthrough, taken, not taken, jump, jump-table case, computed, call, tail call,
/// unresolved). Each edge's `class` attribute names its kind, so it survives into SVG.
void writeCfgDot(const Image &image, const ProgramCfg &cfg, llvm::raw_ostream &out);

} // namespace hoist
