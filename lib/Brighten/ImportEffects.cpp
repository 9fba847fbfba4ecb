#include "Brighten/ImportEffects.h"

#include <llvm/ADT/StringMap.h>

namespace hoist {

std::optional<ImportEffects> importEffects(llvm::StringRef name) {
  // C11/POSIX and the Windows API's documented parameters: the [out] ones and their sizes
  // (DWORD: 4 bytes). Functions that keep a pointer, call back or write a FILE are absent.
  static const llvm::StringMap<ImportEffects> table = {
      // Read only.
      {"strlen", {1, {}}},  {"strnlen", {2, {}}}, {"strcmp", {2, {}}},  {"strncmp", {3, {}}},
      {"strchr", {2, {}}},  {"strrchr", {2, {}}}, {"strstr", {2, {}}},  {"strspn", {2, {}}},
      {"strcspn", {2, {}}}, {"memcmp", {3, {}}},  {"memchr", {3, {}}},  {"atoi", {1, {}}},
      {"atol", {1, {}}},    {"abs", {1, {}}},     {"labs", {1, {}}},    {"toupper", {1, {}}},
      {"tolower", {1, {}}}, {"puts", {1, {}}},    {"putchar", {1, {}}}, {"write", {3, {}}},
      {"GetStdHandle", {1, {}}}, {"GetLastError", {0, {}}},
      // A count given as an argument.
      {"memset", {3, {{0, 0, 2}}}}, {"memcpy", {3, {{0, 0, 2}}}}, {"memmove", {3, {{0, 0, 2}}}},
      // lpNumberOfCharsWritten: a DWORD (lpReserved must be null).
      {"WriteConsoleA", {5, {{3, 4}}}}, {"WriteConsoleW", {5, {{3, 4}}}},
  };
  if (auto found = table.find(name); found != table.end())
    return found->second;
  return std::nullopt;
}

} // namespace hoist
