// The variadic arguments a printf or scanf format string asks for, as the System V ABI passes
// them: a call of `fprintf(stream, "%s: %d\n", name, n)` passes a pointer and an int after its
// fixed parameters. Brightening calls a variadic import with exactly these (VariadicCalls.h).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <variant>
#include <vector>

namespace hoist {

/// How one variadic argument travels: in the next integer register (or stack slot) as 32 or
/// 64 bits, or in the next XMM register as a double (float is promoted to double).
enum class FormatArgument { Int32, Int64, Double };

enum class FormatKind { Printf, Scanf };

/// The arguments `format` converts, in order, or why they cannot be told: a positional
/// argument (`%1$s`), a long double (`%Lf`), a conversion glibc does not define, a format that
/// does not end.
std::variant<std::vector<FormatArgument>, std::string> formatArguments(llvm::StringRef format,
                                                                       FormatKind kind);

} // namespace hoist
