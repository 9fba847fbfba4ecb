// Graphviz's `dot` program turning graphs into SVG, for `hoist report`. A run of dot draws a
// batch of graphs (a file of many digraphs gives one SVG document after another), which saves
// starting it once per function; a batch per core runs at once.
#pragma once

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace hoist {

/// Graphviz's `dot` on PATH, or an error saying how to install it.
llvm::Expected<std::string> findDot();

/// The `<svg>` element of each digraph of `graphs` (each one digraph in dot's language), in
/// order. An error when dot is not on PATH, fails, or writes another number of documents.
llvm::Expected<std::vector<std::string>> renderSvg(const std::vector<std::string> &graphs);

} // namespace hoist
