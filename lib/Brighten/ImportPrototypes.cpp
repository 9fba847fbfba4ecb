#include "Brighten/ImportPrototypes.h"

#include "Prototypes/LibraryPrototype.h"

#include <optional>

namespace hoist {
namespace {

/// The C type brightening passes for an ABI class: integers of up to 32 bits as `i32` (the
/// caller's own code extends or truncates what it reads), 64-bit integers and pointers as
/// `i64`/`ptr`, float and double in XMM registers. Under Win64 a small aggregate travels as
/// the integer of its size and an argument passed by reference is the pointer to the
/// caller's copy, which the lifted caller has made. Nothing for what brightening does not pass
/// yet: long double, vectors, aggregates under System V, 128-bit integers, results returned
/// through a hidden pointer.
std::optional<CType> cTypeOf(const AbiType &type, CallingConvention convention, bool argument) {
  switch (type.abiClass) {
  case AbiClass::Void:
    return CType::Void;
  case AbiClass::StructInRegisters:
    if (convention != CallingConvention::Win64)
      return std::nullopt;
    [[fallthrough]];
  case AbiClass::Integer:
    if (type.size <= 4)
      return CType::Int;
    if (type.size == 8)
      return CType::Long;
    return std::nullopt;
  case AbiClass::Pointer:
    return type.pointsToCode ? CType::CodePointer : CType::Pointer;
  case AbiClass::Float:
    return CType::Float;
  case AbiClass::Double:
    return CType::Double;
  case AbiClass::ByReference:
    if (argument)
      return CType::Pointer;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<VariadicRule> variadicRuleOf(const LibraryPrototype &library) {
  if (library.hasPrintfFormat())
    return VariadicRule::PrintfFormat;
  if (library.hasScanfFormat())
    return VariadicRule::ScanfFormat;
  static constexpr std::pair<unsigned, VariadicRule> Stated[] = {
      {PrototypeFlag::ModeIfCreating, VariadicRule::ModeIfCreating},
      {PrototypeFlag::ArgumentByCommand, VariadicRule::ArgumentByCommand},
      {PrototypeFlag::OneVariadicArgument, VariadicRule::OneArgument},
      {PrototypeFlag::SixLongs, VariadicRule::SixLongs},
      {PrototypeFlag::FourLongs, VariadicRule::FourLongs},
      {PrototypeFlag::NullTerminated, VariadicRule::NullTerminated},
      {PrototypeFlag::NullTerminatedThenOne, VariadicRule::NullTerminatedThenOne},
  };
  for (auto [flag, rule] : Stated)
    if (library.flags & flag)
      return rule;
  return std::nullopt;
}

} // namespace

std::optional<FormatKind> formatKindOf(VariadicRule rule) {
  if (rule == VariadicRule::PrintfFormat)
    return FormatKind::Printf;
  if (rule == VariadicRule::ScanfFormat)
    return FormatKind::Scanf;
  return std::nullopt;
}

bool isDeclaredImport(llvm::StringRef name, llvm::StringRef dll) {
  return findImportPrototype(name, dll);
}

std::variant<ImportPrototype, std::string> importPrototype(llvm::StringRef name,
                                                           llvm::StringRef dll) {
  const LibraryPrototype *library = findImportPrototype(name, dll);
  if (!library) {
    if (dll.empty())
      return "has no prototype in the system headers (lib/Prototypes/LibraryHeaders.h)";
    if (name.starts_with("#"))
      return "is imported by ordinal from " + dll.str() + ", which names no prototype";
    return "has no prototype for " + dll.str() +
           " in the mingw-w64 headers and import libraries (lib/Prototypes/WindowsHeaders.h)";
  }
  if (!library->isFunction())
    return "is a data object, not a function";
  ImportPrototype prototype;
  if (library->isVariadic()) {
    // System V passes variadic arguments as it passes the fixed ones (and AL, which LLVM
    // sets); Win64 also copies floating-point ones to integer registers, not handled yet.
    // Without a format or a stated rule, which registers a call passes is the caller's to
    // know: one it passes on unchanged (`xopen(f, flags, mode)`) looks the same as one it
    // does not pass.
    prototype.variadic = variadicRuleOf(*library);
    if (!prototype.variadic || library->convention != CallingConvention::SysV)
      return "is variadic: which arguments a call passes is not in its prototype";
  }
  std::optional<CType> result = cTypeOf(library->result, library->convention, false);
  if (!result)
    return "returns a long double, vector, struct or 128-bit integer, which brightening does "
           "not pass";
  prototype.result = *result;
  prototype.noReturn = library->isNoReturn();
  for (const AbiType &parameter : library->parameters()) {
    std::optional<CType> argument = cTypeOf(parameter, library->convention, true);
    if (!argument)
      return "takes a long double, vector, struct or 128-bit integer, which brightening does "
             "not pass";
    prototype.arguments.push_back(*argument);
  }
  return prototype;
}

} // namespace hoist
