// The control flow program discovery recovers, as plain data (hoist/ControlFlowTypes.h).
#pragma once

#include "hoist/ControlFlowTypes.h"
#include "hoist/Diagnostics.h"
#include "hoist/Image.h"
#include "hoist/Options.h"

#include <llvm/Support/Error.h>

#include <vector>

namespace hoist {

/// Discovers the functions at `roots` and what they call (every function start with `all`).
/// Empty roots without `all`: main, else the entry point (requestedFunctions, Program.h).
llvm::Expected<ControlFlow> discoverControlFlow(const Image &image,
                                                const std::vector<uint64_t> &roots, bool all,
                                                const LiftOptions &options,
                                                DiagnosticSink &diagnostics);

} // namespace hoist
