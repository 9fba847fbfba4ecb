// hoist's command line, parsed by LLVM's parser, with every message that parser gives in
// hoist's form: "hoist: error: ..." (a suggestion: "hoist: note: Did you mean ...").
#pragma once

#include <llvm/ADT/StringRef.h>

namespace hoist {

/// Parses argv into the registered options; on a usage error prints its messages on stderr
/// and returns false (the caller exits 2).
bool parseCommandLine(int argc, char **argv, llvm::StringRef overview);

} // namespace hoist
