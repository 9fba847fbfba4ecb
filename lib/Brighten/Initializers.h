// A whole ELF binary's constructors and destructors (.init_array, .fini_array) for the module
// brightened from it, so that a program or library recompiled from that module runs them.
#pragma once

#include "hoist/Diagnostics.h"
#include "hoist/Image.h"

#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace hoist {

/// Puts every function that `image`'s .init_array (.fini_array) points to, brightened in
/// `module` (named in `brightened`), into the module's llvm.global_ctors (llvm.global_dtors),
/// in the array's order: the recompiled object's .init_array then holds them, and the C
/// library calls them as it called the original's, with (argc, argv, envp). The start files'
/// own (frame_dummy, __do_global_dtors_aux) are left out where symbols name them: the
/// recompiled program's start files bring theirs. An entry whose function is not brightened
/// gets a `brighten-initializer-lifted` warning: a recompiled binary would not run it.
void carryInitializers(llvm::Module &module, const Image &image,
                       const std::vector<std::string> &brightened, DiagnosticSink &diagnostics);

} // namespace hoist
