// Concolic lifting (`hoist lift --deobfuscate`): one LLVM function per entry whose blocks are
// block instances keyed by (address, concrete context). Concrete values flow through
// registers and memory while lifting; jumps, calls and returns with concrete targets are
// followed (push/ret, call/pop, computed jumps, jumps into the middle of instructions);
// branches with a concrete condition keep only the side taken; calls are inlined unless the
// callee is an import, an export or outlined; loops on symbolic data are generalized into phi
// form (LoopGeneralization.h). docs/DEOBFUSCATE.md has the design.
#pragma once

#include "Deobf/Concolic/DeobfuscateOptions.h"
#include "hoist/Image.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

namespace hoist {

class DiagnosticSink;

/// Lifts the function at `entry` into `module` under liftedFunctionName(image, entry) (replacing
/// a body it has).
llvm::Expected<DeobfuscationStats> deobfuscateFunction(llvm::Module &module, const Image &image,
                                                       uint64_t entry,
                                                       const DeobfuscateOptions &options,
                                                       DiagnosticSink &diagnostics);

} // namespace hoist
