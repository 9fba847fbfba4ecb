// The translated module as an object for this machine, linked with the translation runtime
// and the original program's libraries by the system's compiler driver.
#pragma once

#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace hoist {

/// Writes `module` as a position-independent ELF object for this machine's CPU at `path`.
llvm::Error writeObjectForThisCpu(llvm::Module &module, llvm::StringRef path);

/// Links `objects` with the runtime library and the program's libraries into `output`.
llvm::Error linkTranslatedProgram(llvm::StringRef compiler, const std::vector<std::string> &objects,
                                  llvm::StringRef runtimeLibrary,
                                  const std::vector<std::string> &neededLibraries,
                                  llvm::StringRef output);

} // namespace hoist
