// `hoist --print-completion bash`: a bash completion script made from the options the command
// line registers, so that it never lists an option hoist does not have. The build writes it to
// BUILD/doc/hoist.bash and `cmake --install` installs it (tools/hoist/CMakeLists.txt).
#pragma once

#include <llvm/Support/raw_ostream.h>

namespace hoist {

/// The script: subcommands after `hoist`, each subcommand's options after it, files otherwise.
void printBashCompletion(llvm::raw_ostream &out);

} // namespace hoist
