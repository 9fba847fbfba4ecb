#include "Brighten/ImportEffects.h"

#include "Prototypes/LibraryPrototype.h"

#include <llvm/ADT/StringMap.h>

namespace hoist {
namespace {

/// A DLL's function: the writes its SAL annotations give, when they are all it writes
/// (lib/Prototypes/WindowsAnnotations.h).
std::optional<ImportEffects> windowsImportEffects(llvm::StringRef name, llvm::StringRef dll) {
  const LibraryPrototype *prototype = findWindowsPrototype(name, dll);
  if (!prototype || !prototype->isFunction() || !prototype->hasKnownWrites())
    return std::nullopt;
  ImportEffects effects{static_cast<unsigned>(prototype->parameters().size()), {}};
  for (const ParameterWrite &write : prototype->writes())
    effects.writes.push_back({write.parameter, write.bytes, write.sizeParameter});
  return effects;
}

} // namespace

std::optional<ImportEffects> importEffects(llvm::StringRef name, llvm::StringRef library) {
  if (!library.empty())
    return windowsImportEffects(name, library);
  // C11/POSIX's documented parameters: the [out] ones and their sizes. Functions that keep
  // a pointer, call back or write a FILE are absent.
  static const llvm::StringMap<ImportEffects> table = {
      // Read only.
      {"strlen", {1, {}}},  {"strnlen", {2, {}}}, {"strcmp", {2, {}}},  {"strncmp", {3, {}}},
      {"strchr", {2, {}}},  {"strrchr", {2, {}}}, {"strstr", {2, {}}},  {"strspn", {2, {}}},
      {"strcspn", {2, {}}}, {"memcmp", {3, {}}},  {"memchr", {3, {}}},  {"atoi", {1, {}}},
      {"atol", {1, {}}},    {"abs", {1, {}}},     {"labs", {1, {}}},    {"toupper", {1, {}}},
      {"tolower", {1, {}}}, {"puts", {1, {}}},    {"putchar", {1, {}}}, {"write", {3, {}}},
      // A count given as an argument.
      {"memset", {3, {{0, 0, 2}}}}, {"memcpy", {3, {{0, 0, 2}}}}, {"memmove", {3, {{0, 0, 2}}}},
  };
  if (auto found = table.find(name); found != table.end())
    return found->second;
  return std::nullopt;
}

} // namespace hoist
