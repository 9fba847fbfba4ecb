// Where the translation runtime (runtime/, libhoist_translate_runtime.a) is: the same lookup
// for the hoist executable and for a program using libhoist, in the build tree and installed.
#pragma once

#include <llvm/Support/Error.h>

#include <string>

namespace hoist {

/// $HOIST_TRANSLATE_RUNTIME when it is set; otherwise the runtime found relative to the file
/// that holds this code (libhoist.so, or an executable linking Hoist statically) and to the
/// running executable: DIR/hoist/ (DIR a library directory), then LIBDIR/hoist/ under DIR's
/// parent and grandparent (DIR a bin/ directory, or build/tools/hoist). Installation and build
/// tree share that layout (lib/CMakeLists.txt), so no path of the build is compiled in.
llvm::Expected<std::string> findTranslateRuntime();

} // namespace hoist
