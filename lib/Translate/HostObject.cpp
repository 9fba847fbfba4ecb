#include "Translate/HostObject.h"

#include "Brighten/EmitObject.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/ToolOutputFile.h>

namespace hoist {

llvm::Error writeObjectForThisCpu(llvm::Module &module, llvm::StringRef path) {
  std::error_code fileError;
  llvm::ToolOutputFile out(path, fileError, llvm::sys::fs::OF_None);
  if (fileError)
    return makeError("{0}: cannot write: {1}", path, fileError.message());
  if (llvm::Error error = emitHostObject(module, out.os(), /*forThisCpu=*/true))
    return error;
  out.keep();
  return llvm::Error::success();
}

llvm::Error linkTranslatedProgram(llvm::StringRef compiler, const std::vector<std::string> &objects,
                                  llvm::StringRef runtimeLibrary,
                                  const std::vector<std::string> &neededLibraries,
                                  llvm::StringRef output) {
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(compiler);
  if (!program)
    return makeError("cannot find the linker driver '{0}' (set CC)", compiler);
  // A PIE output keeps the low addresses free for a non-PIE original's image. The program's
  // libraries are loaded whether or not the object references them (they are looked up with
  // dlsym at start).
  std::vector<std::string> arguments{*program, "-pie", "-o", output.str()};
  arguments.insert(arguments.end(), objects.begin(), objects.end());
  arguments.push_back(runtimeLibrary.str());
  arguments.push_back("-Wl,--no-as-needed");
  for (const std::string &library : neededLibraries)
    if (!llvm::StringRef(library).starts_with("ld-linux"))
      arguments.push_back("-l:" + library);
  // libm: LLVM lowers x86_fp80 rounding (llvm.trunc.f80, ...) to truncl and friends.
  arguments.push_back("-lm");
  arguments.push_back("-ldl");
  std::vector<llvm::StringRef> argv(arguments.begin(), arguments.end());
  std::string message;
  int status = llvm::sys::ExecuteAndWait(*program, argv, std::nullopt, {}, 0, 0, &message);
  if (status != 0)
    return makeError("linking {0} failed ({1}{2})", output, llvm::join(argv, " "),
                     message.empty() ? "" : ": " + message);
  return llvm::Error::success();
}

} // namespace hoist
