// The diagnostics JSON's `deobfuscation` records (docs/DEOBFUSCATE.md), built the same way by
// `hoist lift` and by each chunk of `hoist lift --all -j N`.
#pragma once

#include "Deobf/Concolic/DeobfuscateOptions.h"
#include "Deobf/Passes/DeobfPasses.h"
#include "hoist/Image.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/JSON.h>

#include <vector>

namespace hoist {

/// One record per deobfuscated function of `module`, named as in the module, with what the
/// concolic lift did (`concolic`: `concolic` in its order) and what the IR passes did
/// (`passes`: every function of the module, when `passes` is given). Brightening runs the
/// passes on `<lifted name>.brightened` before giving it its own name, and on probes (`.probe`),
/// which are copies and are not counted.
llvm::json::Array deobfuscationRecords(const std::vector<DeobfuscationStats> &concolic,
                                       const DeobfuscationPassStats *passes,
                                       const llvm::Module &module, const Image &image);

} // namespace hoist
