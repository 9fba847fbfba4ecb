// The C prototypes of the library functions a brightened function may call by name: lifted
// code calls `@"import.strlen"(state, mem)`, which says nothing of the arguments. With the
// prototype, the call reads exactly those registers and becomes `call i64 @strlen(ptr)`.
// The prototypes are the system headers' (lib/Prototypes: the Linux libraries' for an ELF
// import, the DLL's own for a PE import), reduced to the types brightening passes.
#pragma once

#include "Brighten/FormatArguments.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hoist {

/// A C type as a calling convention sees it.
enum class CType { Void, Int, Long, Pointer, Double, Float };

struct ImportPrototype {
  CType result = CType::Void;
  std::vector<CType> arguments;
  bool noReturn = false; ///< declared noreturn: the code after a call of it is unreachable
  /// Set for a variadic function (System V) whose last parameter is a printf or scanf format:
  /// each call passes what its format converts after these (VariadicCalls.h).
  std::optional<FormatKind> format = std::nullopt;
};

/// The prototype of the library function `name` imported from `dll` (empty for an ELF
/// import), or why it cannot be called by name: no header declares it, it is variadic
/// without a format that says what a call passes (or a Win64 one), or it passes a type
/// brightening does not (long double, a struct by value).
std::variant<ImportPrototype, std::string> importPrototype(llvm::StringRef name,
                                                           llvm::StringRef dll);

/// Whether a header declares `name` as imported from `dll` (empty for ELF): if not,
/// brightening infers its prototype from its calls (InferredImports.h).
bool isDeclaredImport(llvm::StringRef name, llvm::StringRef dll);

} // namespace hoist
