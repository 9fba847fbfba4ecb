// What `hoist translate` cannot run yet, found before anything is lifted: each is a reason
// the translated program would misbehave (docs/TRANSLATE.md, "Not supported").
#pragma once

#include "Translate/ElfProgram.h"
#include "hoist/Image.h"

#include <llvm/ADT/ArrayRef.h>

#include <string>
#include <vector>

namespace hoist {

struct Refusal {
  std::string code;      ///< "threads", "exceptions", "tls", ...
  std::string message;   ///< names the import, relocation or feature
};

/// An import whose presence shows the program uses a feature translation does not support.
/// Each is a library function the prototype table declares (tested): the table says how a
/// function is called, this list what translating a program that calls it would break.
struct RefusedImport {
  const char *name;
  const char *code;
  const char *why;
};
llvm::ArrayRef<RefusedImport> refusedImports();

/// Inputs translation cannot take at all (not a dynamically linked ELF executable).
std::vector<Refusal> unusableInput(const Image &image, const ElfProgram &program);

/// Features of the program that translation does not support (threads, C++ exceptions, ucontext
/// switching, run-time code generation, thread-local variables, relocation
/// types the runtime does not apply); `--allow-unsupported` translates anyway.
std::vector<Refusal> unsupportedFeatures(const Image &image, const ElfProgram &program);

} // namespace hoist
