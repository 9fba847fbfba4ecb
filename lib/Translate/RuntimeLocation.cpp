#include "Translate/RuntimeLocation.h"

#include "Support/Error.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>

#include <dlfcn.h>

#include <vector>

namespace hoist {
namespace {

constexpr const char *RuntimeFileName = "libhoist_translate_runtime.a";

/// The directories the runtime may be in, seen from a directory holding Hoist's code.
void addCandidates(llvm::StringRef codeDirectory, std::vector<std::string> &candidates) {
  if (codeDirectory.empty())
    return;
  auto add = [&](llvm::StringRef base, llvm::StringRef libraryDirectory) {
    llvm::SmallString<256> path(base);
    llvm::sys::path::append(path, libraryDirectory, "hoist", RuntimeFileName);
    candidates.push_back(std::string(path));
  };
  add(codeDirectory, "");
  llvm::StringRef ancestor = codeDirectory;
  for (int up = 0; up < 2; ++up) {
    ancestor = llvm::sys::path::parent_path(ancestor);
    if (ancestor.empty())
      break;
    // HOIST_INSTALL_LIBDIR is relative (lib, or lib/x86_64-linux-gnu); the build tree always
    // uses lib.
    add(ancestor, HOIST_INSTALL_LIBDIR);
    add(ancestor, "lib");
  }
}

std::string directoryOf(llvm::StringRef file) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(file, real))
    return "";
  return std::string(llvm::sys::path::parent_path(real));
}

} // namespace

llvm::Expected<std::string> findTranslateRuntime() {
  if (std::optional<std::string> path = llvm::sys::Process::GetEnv("HOIST_TRANSLATE_RUNTIME"))
    return *path;
  std::vector<std::string> candidates;
  // The file holding this function: libhoist.so when a program uses the shared library (its
  // own executable may be anywhere, python3 for the Python module).
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&findTranslateRuntime), &info) && info.dli_fname &&
      llvm::sys::path::is_absolute(info.dli_fname))
    addCandidates(directoryOf(info.dli_fname), candidates);
  // The running executable (/proc/self/exe), when Hoist is linked into it.
  addCandidates(directoryOf(llvm::sys::fs::getMainExecutable(
                    nullptr, reinterpret_cast<void *>(&findTranslateRuntime))),
                candidates);
  for (const std::string &candidate : candidates)
    if (llvm::sys::fs::exists(candidate))
      return candidate;
  return makeError("the translation runtime {0} is in none of the places Hoist looks for it "
                   "({1} first); set HOIST_TRANSLATE_RUNTIME to its path",
                   RuntimeFileName, candidates.empty() ? std::string("-") : candidates.front());
}

} // namespace hoist
