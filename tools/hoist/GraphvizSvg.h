// Graphviz's `dot` program turning graphs into SVG, for `hoist report`. One run draws every
// graph: dot reads a file of many digraphs and writes one SVG document after another, which
// saves starting it once per function.
#pragma once

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace hoist {

/// The `<svg>` element of each digraph in `dot` (the digraphs one after the other), in order;
/// `graphs` says how many there are. An error when Graphviz's `dot` is not on PATH, fails, or
/// writes another number of documents.
llvm::Expected<std::vector<std::string>> renderSvg(const std::string &dot, size_t graphs);

} // namespace hoist
