// The diagnostics JSON's `imports` records (docs/PROTOTYPES.md): where each import's prototype
// came from, so that a user can tell a call through a header's prototype from one through a
// prototype brightening inferred from the calls.
#pragma once

#include "hoist/Image.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/JSON.h>

namespace hoist {

/// One record per import of `image`: its name (and DLL), and `prototype`: "definition" when the
/// binary defines it itself (its calls are calls of that function), "header" when the system
/// headers declare it, "inferred" when brightening inferred one from its calls in `module`
/// (when given), "none" otherwise.
llvm::json::Array importRecords(const Image &image, const llvm::Module *module);

} // namespace hoist
