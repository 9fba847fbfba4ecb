#include "Translate/ImportArguments.h"

#include <llvm/ADT/StringMap.h>

namespace hoist {
namespace {

/// Prototypes checked against the glibc headers, by number of arguments. Only functions that
/// ImportShapes.cpp calls as Integer belong here, and none that is variadic (open, fcntl and
/// ioctl read a third argument only sometimes: they keep all six).
const llvm::StringMap<unsigned> &argumentCounts() {
  static const llvm::StringMap<unsigned> counts = [] {
    llvm::StringMap<unsigned> table;
    auto add = [&](unsigned count, std::initializer_list<const char *> names) {
      for (const char *name : names)
        table[name] = count;
    };
    add(0, {"__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc",
            "__ctype_get_mb_cur_max", "__errno_location", "getpid", "getppid", "getuid",
            "geteuid", "getgid", "getegid", "abort", "rand", "getpagesize", "getchar",
            "getchar_unlocked"});
    add(1, {"strlen", "strdup", "__strdup", "free", "malloc", "mbsinit", "tolower", "toupper",
            "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower",
            "isprint", "ispunct", "isspace", "isupper", "isxdigit", "iswalnum", "iswalpha",
            "iswblank", "iswcntrl", "iswdigit", "iswgraph", "iswlower", "iswprint", "iswpunct",
            "iswspace", "iswupper", "iswxdigit", "towlower", "towupper", "wcwidth", "btowc",
            "wctob", "wcslen", "close", "exit", "_exit", "_Exit", "atoi", "atol", "atoll",
            "getenv", "strerror", "fclose", "fflush", "fflush_unlocked", "fileno", "feof",
            "ferror", "clearerr", "feof_unlocked", "ferror_unlocked", "fgetc", "getc",
            "fgetc_unlocked", "getc_unlocked", "putchar", "putchar_unlocked", "puts", "isatty",
            "__fpending", "__freading", "__fwriting", "__fpurge", "fpurge", "__uflow",
            "__underflow", "abs", "labs", "llabs", "unlink", "rmdir", "chdir", "umask",
            "time"});
    add(2, {"strcmp", "strchr", "strrchr", "strchrnul", "strstr", "strcpy", "stpcpy", "strcat",
            "strspn", "strcspn", "strpbrk", "strcoll", "strcasecmp", "strnlen", "strndup",
            "strverscmp", "__rawmemchr", "rawmemchr", "calloc", "realloc", "fputs",
            "fputs_unlocked", "fputc", "putc", "fputc_unlocked", "putc_unlocked", "ungetc",
            "__overflow", "__fsetlocking", "setlocale", "fopen", "dup2", "access", "rename",
            "gettimeofday", "clock_gettime"});
    add(3, {"memcpy", "memmove", "memset", "memcmp", "memchr", "memrchr", "mempcpy",
            "strncmp", "strncpy", "strncat", "stpncpy", "strncasecmp", "strxfrm", "strtol",
            "strtoul", "strtoll", "strtoull", "mbrlen", "mbtowc", "wcrtomb", "mbstowcs",
            "wcstombs", "read", "write", "lseek", "fgets", "fseeko", "fseek", "getline"});
    add(4, {"mbrtowc", "mbsrtowcs", "wcsrtombs", "fread", "fwrite", "fread_unlocked",
            "fwrite_unlocked", "getdelim", "__getdelim", "memmem", "__memcpy_chk",
            "__memmove_chk", "__mempcpy_chk", "__memset_chk", "setvbuf"});
    return table;
  }();
  return counts;
}

} // namespace

unsigned integerArgumentsRead(llvm::StringRef name) {
  auto found = argumentCounts().find(name);
  return found == argumentCounts().end() ? 6 : found->second;
}

} // namespace hoist
