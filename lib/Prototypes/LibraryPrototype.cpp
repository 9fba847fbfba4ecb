#include "Prototypes/LibraryPrototype.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace hoist {
namespace {

#include "LibraryPrototypes.inc"

} // namespace

llvm::ArrayRef<LibraryPrototype> allLibraryPrototypes() {
  return {GeneratedPrototypes, GeneratedPrototypeCount};
}

bool returnsTwice(llvm::StringRef name) {
  name = name.split('@').first;
  return name == "setjmp" || name == "_setjmp" || name == "__sigsetjmp" || name == "sigsetjmp" ||
         name == "savectx" || name == "getcontext" || name == "vfork";
}

const LibraryPrototype *findLibraryPrototype(llvm::StringRef name) {
  name = name.split('@').first;
  llvm::ArrayRef<LibraryPrototype> table = allLibraryPrototypes();
  const LibraryPrototype *found = std::lower_bound(
      table.begin(), table.end(), name,
      [](const LibraryPrototype &entry, llvm::StringRef key) { return key.compare(entry.name) > 0; });
  if (found == table.end() || name != found->name)
    return nullptr;
  return found;
}

} // namespace hoist
