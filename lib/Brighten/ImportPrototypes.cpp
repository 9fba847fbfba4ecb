#include "Brighten/ImportPrototypes.h"

#include <llvm/ADT/StringMap.h>

namespace hoist {
namespace {

constexpr CType V = CType::Void, I = CType::Int, L = CType::Long, P = CType::Pointer,
                D = CType::Double, F = CType::Float;

/// C11, POSIX and glibc prototypes (size_t, ssize_t, long, off_t, time_t: Long; char,
/// unsigned: Int, as passed).
const llvm::StringMap<ImportPrototype> &knownPrototypes() {
  static const llvm::StringMap<ImportPrototype> table = {
      // <string.h>
      {"strlen", {L, {P}}},        {"strnlen", {L, {P, L}}},      {"strcmp", {I, {P, P}}},
      {"strncmp", {I, {P, P, L}}}, {"strcpy", {P, {P, P}}},       {"strncpy", {P, {P, P, L}}},
      {"strcat", {P, {P, P}}},     {"strncat", {P, {P, P, L}}},   {"strchr", {P, {P, I}}},
      {"strrchr", {P, {P, I}}},    {"strstr", {P, {P, P}}},       {"strdup", {P, {P}}},
      {"strspn", {L, {P, P}}},     {"strcspn", {L, {P, P}}},      {"memcpy", {P, {P, P, L}}},
      {"memmove", {P, {P, P, L}}}, {"memset", {P, {P, I, L}}},    {"memcmp", {I, {P, P, L}}},
      {"memchr", {P, {P, I, L}}},
      // <stdlib.h>
      {"malloc", {P, {L}}},        {"calloc", {P, {L, L}}},       {"realloc", {P, {P, L}}},
      {"free", {V, {P}}},          {"abs", {I, {I}}},             {"labs", {L, {L}}},
      {"llabs", {L, {L}}},         {"atoi", {I, {P}}},            {"atol", {L, {P}}},
      {"atof", {D, {P}}},          {"strtol", {L, {P, P, I}}},    {"strtoul", {L, {P, P, I}}},
      {"strtod", {D, {P, P}}},     {"rand", {I, {}}},             {"srand", {V, {I}}},
      {"exit", {V, {I}}},          {"abort", {V, {}}},            {"qsort", {V, {P, L, L, P}}},
      // <ctype.h>
      {"toupper", {I, {I}}},       {"tolower", {I, {I}}},         {"isdigit", {I, {I}}},
      {"isalpha", {I, {I}}},       {"isspace", {I, {I}}},         {"isalnum", {I, {I}}},
      // <stdio.h>, without the variadic ones
      {"puts", {I, {P}}},          {"putchar", {I, {I}}},         {"getchar", {I, {}}},
      {"fputs", {I, {P, P}}},      {"fflush", {I, {P}}},
      // <math.h>
      {"sqrt", {D, {D}}},          {"sqrtf", {F, {F}}},           {"fabs", {D, {D}}},
      {"floor", {D, {D}}},         {"ceil", {D, {D}}},            {"round", {D, {D}}},
      {"sin", {D, {D}}},           {"cos", {D, {D}}},             {"exp", {D, {D}}},
      {"log", {D, {D}}},           {"pow", {D, {D, D}}},          {"fmod", {D, {D, D}}},
      {"atan2", {D, {D, D}}},      {"fmin", {D, {D, D}}},         {"fmax", {D, {D, D}}},
      // <time.h>
      {"time", {L, {P}}},
      // <stdio.h> streams
      {"fopen", {P, {P, P}}},      {"fclose", {I, {P}}},          {"fwrite", {L, {P, L, L, P}}},
      {"fread", {L, {P, L, L, P}}}, {"fputc", {I, {I, P}}},       {"putc", {I, {I, P}}},
      {"fgetc", {I, {P}}},         {"getc", {I, {P}}},            {"ferror", {I, {P}}},
      {"feof", {I, {P}}},          {"fileno", {I, {P}}},
      // more of <string.h>, <stdlib.h>; glibc's own names for them
      {"strtoll", {L, {P, P, I}}}, {"strtoull", {L, {P, P, I}}}, {"strcoll", {I, {P, P}}},
      {"strerror", {P, {I}}},      {"stpcpy", {P, {P, P}}},       {"mempcpy", {P, {P, P, L}}},
      {"memrchr", {P, {P, I, L}}}, {"rawmemchr", {P, {P, I}}},    {"getenv", {P, {P}}},
      {"reallocarray", {P, {P, L, L}}}, {"atexit", {I, {P}}},     {"_exit", {V, {I}}},
      {"__errno_location", {P, {}}}, {"__ctype_b_loc", {P, {}}},
      {"__ctype_tolower_loc", {P, {}}}, {"__ctype_toupper_loc", {P, {}}},
      // <locale.h>, <libintl.h>
      {"setlocale", {P, {I, P}}},  {"gettext", {P, {P}}},         {"dcgettext", {P, {P, P, I}}},
      {"textdomain", {P, {P}}},    {"bindtextdomain", {P, {P, P}}},
      // <unistd.h>
      {"isatty", {I, {I}}},        {"close", {I, {I}}},           {"read", {L, {I, P, L}}},
      {"write", {L, {I, P, L}}},   {"lseek", {L, {I, L, I}}},
      // Windows console output (HANDLE, BOOL, DWORD as passed)
      {"GetStdHandle", {P, {I}}},  {"WriteConsoleA", {I, {P, P, I, P, P}}},
  };
  return table;
}

} // namespace

bool isVariadicImport(llvm::StringRef name) {
  static const char *const variadic[] = {"printf", "fprintf",  "sprintf", "snprintf",
                                         "scanf",  "sscanf",   "fscanf",  "open",
                                         "ioctl",  "fcntl",    "execl",   "__printf_chk",
                                         "__fprintf_chk", "__sprintf_chk", "__snprintf_chk"};
  for (const char *candidate : variadic)
    if (name == candidate)
      return true;
  return false;
}

std::variant<ImportPrototype, std::string> importPrototype(llvm::StringRef name) {
  const llvm::StringMap<ImportPrototype> &table = knownPrototypes();
  if (auto found = table.find(name); found != table.end())
    return found->second;
  if (isVariadicImport(name))
    return "is variadic: which arguments a call passes is not in its prototype";
  return "has no prototype known to Hoist (lib/Brighten/ImportPrototypes.cpp)";
}

} // namespace hoist
