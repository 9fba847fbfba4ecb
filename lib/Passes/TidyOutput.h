// What an optimized module no longer needs but still prints: declarations of intrinsics
// (LLVM's, Hoist's `__hoist_X`) and imports (`import.X`) that no call is left of, and alias
// scopes that inlining made
// (`"classify.flat: argument 0"`) but that can no longer tell two accesses apart.
#pragma once

#include <llvm/IR/Module.h>

namespace hoist {

/// Removes both from `module`; its meaning does not change.
void tidyOptimizedModule(llvm::Module &module);

} // namespace hoist
