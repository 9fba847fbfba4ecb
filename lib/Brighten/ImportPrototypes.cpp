#include "Brighten/ImportPrototypes.h"

#include "Prototypes/LibraryPrototype.h"

#include <llvm/ADT/StringSwitch.h>

#include <optional>

namespace hoist {
namespace {

/// The C type brightening passes for an ABI class: integers of up to 32 bits as `i32` (the
/// caller's own code extends or truncates what it reads), 64-bit integers and pointers as
/// `i64`/`ptr`, float and double in XMM registers. Nothing for what brightening does not pass
/// yet: long double, vectors, structs and 128-bit integers.
std::optional<CType> cTypeOf(const AbiType &type) {
  switch (type.abiClass) {
  case AbiClass::Void:
    return CType::Void;
  case AbiClass::Integer:
    if (type.size <= 4)
      return CType::Int;
    if (type.size == 8)
      return CType::Long;
    return std::nullopt;
  case AbiClass::Pointer:
    return CType::Pointer;
  case AbiClass::Float:
    return CType::Float;
  case AbiClass::Double:
    return CType::Double;
  default:
    return std::nullopt;
  }
}

/// Win32 functions the brightening tests call (console output of the PE test programs). The
/// prototype table does not read the mingw-w64 headers yet; HANDLE, BOOL and DWORD as passed.
std::optional<ImportPrototype> win32Prototype(llvm::StringRef name) {
  constexpr CType I = CType::Int, P = CType::Pointer;
  return llvm::StringSwitch<std::optional<ImportPrototype>>(name)
      .Case("GetStdHandle", ImportPrototype{P, {I}})
      .Case("WriteConsoleA", ImportPrototype{I, {P, P, I, P, P}})
      .Default(std::nullopt);
}

} // namespace

bool isDeclaredImport(llvm::StringRef name) {
  return findLibraryPrototype(name) || win32Prototype(name);
}

std::variant<ImportPrototype, std::string> importPrototype(llvm::StringRef name) {
  const LibraryPrototype *library = findLibraryPrototype(name);
  if (!library) {
    if (std::optional<ImportPrototype> win32 = win32Prototype(name))
      return *win32;
    return "has no prototype in the system headers (lib/Prototypes/LibraryHeaders.h)";
  }
  if (!library->isFunction())
    return "is a data object, not a function";
  if (library->isVariadic())
    return "is variadic: which arguments a call passes is not in its prototype";
  ImportPrototype prototype;
  std::optional<CType> result = cTypeOf(library->result);
  if (!result)
    return "returns a long double, vector, struct or 128-bit integer, which brightening does "
           "not pass";
  prototype.result = *result;
  for (const AbiType &parameter : library->parameters()) {
    std::optional<CType> argument = cTypeOf(parameter);
    if (!argument)
      return "takes a long double, vector, struct or 128-bit integer, which brightening does "
             "not pass";
    prototype.arguments.push_back(*argument);
  }
  return prototype;
}

} // namespace hoist
