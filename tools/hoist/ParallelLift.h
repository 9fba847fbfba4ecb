// `hoist lift --all -j N`: the discovered functions lifted and optimized by N workers, each
// with its own LLVMContext, in chunks of consecutive functions; every chunk is written as its
// own module (DIR/fn_<first>.ll or .bc, in address order) and freed, so that memory stays flat
// however large the program. The chunks' modules link into one program with llvm-link:
// a call to a function of another chunk stays a declaration (liftedFunctionName names it alike
// in every chunk).
#pragma once

#include "Commands.h"
#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"
#include "hoist/Progress.h"

#include <llvm/Support/Error.h>
#include <llvm/Support/JSON.h>

#include <cstdint>
#include <vector>

namespace hoist {

/// The number of workers `-j 0` means: every core.
unsigned allCores();

/// Lifts `entries` as described above. `discoverer` has run discover(); its findings are
/// shared with the workers. Diagnostics of every worker end up in `diagnostics`, the chunks'
/// `deobfuscation` records (DeobfuscationRecords.h) in `deobfuscation` in chunk order; the
/// returned stats add up all chunks. `progress`, if any, counts the functions of each chunk
/// written.
llvm::Expected<LiftStats> liftInParallel(const Image &image, const Lifter &discoverer,
                                         std::vector<uint64_t> entries,
                                         const LiftCommandOptions &options,
                                         DiagnosticSink &diagnostics,
                                         llvm::json::Array &deobfuscation,
                                         Progress *progress = nullptr);

} // namespace hoist
