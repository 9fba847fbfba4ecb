// The C prototypes of the library functions a brightened function may call by name: lifted
// code calls `@"import.strlen"(state, mem)`, which says nothing of the arguments. With the
// prototype, the call reads exactly those registers and becomes `call i64 @strlen(ptr)`.
#pragma once

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
};

/// The prototype of the C library function `name`, or why it cannot be called by name:
/// unknown to Hoist, or variadic (the arguments a call passes are not in the prototype).
std::variant<ImportPrototype, std::string> importPrototype(llvm::StringRef name);

/// Whether `name` is a variadic C library function (printf): a call's arguments are not
/// its prototype's.
bool isVariadicImport(llvm::StringRef name);

} // namespace hoist
