#include "Discover/NoReturn.h"

#include "Prototypes/LibraryPrototype.h"

namespace hoist {

bool isKnownNoReturnImport(llvm::StringRef name, llvm::StringRef library) {
  const LibraryPrototype *prototype = findImportPrototype(name, library);
  return prototype && prototype->isFunction() && prototype->isNoReturn();
}

bool isKnownNoReturnName(llvm::StringRef name) { return isKnownNoReturnImport(name, ""); }

bool isNoReturnWhenStatusNonzeroName(llvm::StringRef name) {
  name = name.split('@').first;
  return name == "error" || name == "error_at_line";
}

namespace {

/// Where calls to the imports that `matches` go.
std::set<uint64_t> importsNamed(const Image &image, bool (*matches)(const Import &)) {
  std::set<uint64_t> callees;
  for (const Import &import : image.imports()) {
    // A library's own function called through its PLT is analysed as code, like any other.
    if (import.definedAt || !matches(import))
      continue;
    callees.insert(import.slotAddress);
    if (import.stubAddress)
      callees.insert(*import.stubAddress);
  }
  return callees;
}

} // namespace

std::set<uint64_t> knownNoReturnCallees(const Image &image) {
  return importsNamed(image, [](const Import &import) {
    return isKnownNoReturnImport(import.name, import.library);
  });
}

std::set<uint64_t> noReturnWhenStatusNonzeroCallees(const Image &image) {
  // glibc's: a DLL's `error` is another function.
  return importsNamed(image, [](const Import &import) {
    return import.library.empty() && isNoReturnWhenStatusNonzeroName(import.name);
  });
}

} // namespace hoist
