#include "Discover/NoReturn.h"

#include "Prototypes/LibraryPrototype.h"

#include <llvm/ADT/StringSwitch.h>

namespace hoist {
namespace {

/// Win32 and Microsoft C runtime functions that never return. The prototype table does not
/// read the mingw-w64 headers yet, and discovery of PE programs needs these (the mingw
/// end-to-end and cfg tests end in them). TerminateProcess and RaiseException are not here:
/// both return (another process's handle; a continuable exception).
bool isWin32NoReturnName(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("ExitProcess", "ExitThread", "FatalExit", "FatalAppExitA", "FatalAppExitW", true)
      .Cases("RtlRaiseException", "_assert", "_invalid_parameter_noinfo_noreturn", true)
      .Cases("__report_gsfailure", "_CxxThrowException", true)
      .Default(false);
}

} // namespace

bool isKnownNoReturnName(llvm::StringRef name) {
  if (const LibraryPrototype *prototype = findLibraryPrototype(name))
    return prototype->isFunction() && prototype->isNoReturn();
  return isWin32NoReturnName(name.split('@').first);
}

bool isNoReturnWhenStatusNonzeroName(llvm::StringRef name) {
  name = name.split('@').first;
  return name == "error" || name == "error_at_line";
}

namespace {

/// Where calls to the imports whose names `matches` go.
std::set<uint64_t> importsNamed(const Image &image, bool (*matches)(llvm::StringRef)) {
  std::set<uint64_t> callees;
  for (const Import &import : image.imports()) {
    // A library's own function called through its PLT is analysed as code, like any other.
    if (import.definedAt || !matches(import.name))
      continue;
    callees.insert(import.slotAddress);
    if (import.stubAddress)
      callees.insert(*import.stubAddress);
  }
  return callees;
}

} // namespace

std::set<uint64_t> knownNoReturnCallees(const Image &image) {
  return importsNamed(image, isKnownNoReturnName);
}

std::set<uint64_t> noReturnWhenStatusNonzeroCallees(const Image &image) {
  return importsNamed(image, isNoReturnWhenStatusNonzeroName);
}

} // namespace hoist
