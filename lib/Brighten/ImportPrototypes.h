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
enum class CType { Void, Int, Long, Pointer, CodePointer, Double, Float };

/// What tells which variadic arguments a call passes after the fixed parameters
/// (VariadicCalls.h): its printf or scanf format (the last fixed parameter), or for the
/// variadic functions without a format the rule their manual states (the prototype table's
/// VariadicAnnotations.h): open's mode when its flags create a file, fcntl's argument unless
/// its command takes none, ioctl's one argument.
enum class VariadicRule {
  PrintfFormat,
  ScanfFormat,
  ModeIfCreating,
  ArgumentByCommand,
  OneArgument,
  SixLongs,
  FourLongs,
  NullTerminated,
  NullTerminatedThenOne,
};

/// The format kind of a format rule; nullopt for the others.
std::optional<FormatKind> formatKindOf(VariadicRule rule);

struct ImportPrototype {
  CType result = CType::Void;
  std::vector<CType> arguments;
  bool noReturn = false; ///< declared noreturn: the code after a call of it is unreachable
  /// Set for a variadic function (System V) whose calls tell what they pass after these: by
  /// their format, or by the rule the function's manual states (VariadicCalls.h).
  std::optional<VariadicRule> variadic = std::nullopt;
};

/// The prototype of the library function `name` imported from `dll` (empty for an ELF
/// import), or why it cannot be called by name: no header declares it, it is variadic
/// without a rule that says what a call passes (or a Win64 one), or it passes a type
/// brightening does not (long double, a struct by value).
std::variant<ImportPrototype, std::string> importPrototype(llvm::StringRef name,
                                                           llvm::StringRef dll);

/// Whether a header declares `name` as imported from `dll` (empty for ELF): if not,
/// brightening infers its prototype from its calls (InferredImports.h).
bool isDeclaredImport(llvm::StringRef name, llvm::StringRef dll);

} // namespace hoist
