#include "Prototypes/LibraryPrototype.h"

#include <llvm/ADT/SmallString.h>

#include <algorithm>
#include <cstddef>

namespace hoist {
namespace {

#include "WindowsPrototypes.inc"

} // namespace

llvm::ArrayRef<LibraryPrototype> allWindowsPrototypes() {
  return {GeneratedPrototypes, GeneratedPrototypeCount};
}

const LibraryPrototype *findWindowsPrototype(llvm::StringRef name, llvm::StringRef dll) {
  llvm::SmallString<64> library(dll.lower());
  auto key = std::make_pair(name, llvm::StringRef(library));
  llvm::ArrayRef<LibraryPrototype> table = allWindowsPrototypes();
  const LibraryPrototype *found = std::lower_bound(
      table.begin(), table.end(), key, [](const LibraryPrototype &entry, const auto &wanted) {
        return std::make_pair(llvm::StringRef(entry.name), llvm::StringRef(entry.library)) <
               wanted;
      });
  if (found == table.end() || llvm::StringRef(found->name) != name ||
      llvm::StringRef(found->library) != library)
    return nullptr;
  return found;
}

const LibraryPrototype *findImportPrototype(llvm::StringRef name, llvm::StringRef library) {
  if (library.empty())
    return findLibraryPrototype(name);
  return findWindowsPrototype(name, library);
}

} // namespace hoist
