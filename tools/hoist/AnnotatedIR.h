// `hoist lift --annotate`: text IR with the machine code it came from. Before the IR of each
// machine instruction, a comment line gives its address and its assembly (Intel syntax, as
// Hoist's diagnostics print instructions):
//
//     ; 0x11f4: push rbp
//
// The comments are the only addition, so the text stays IR that llvm-as reads.
#pragma once

#include "hoist/Image.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist {

struct AnnotateOptions {
  /// Unoptimized IR (-O0) keeps each block's instructions in machine order, so a machine
  /// instruction that left no IR of its own (a register move the SSA form absorbed) is
  /// listed before the next one that did. Optimized IR moves and merges instructions: only
  /// the instructions whose IR still carries their `!hoist.pc` are listed there.
  bool listUntagged = false;
};

/// Prints `module` as `Module::print` does, with the comments above (and one naming each
/// lifted function's entry before its definition).
void printAnnotated(const llvm::Module &module, const Image &image, AnnotateOptions options,
                    llvm::raw_ostream &out);

} // namespace hoist
