#include "Translate/ImportShapes.h"

#include <llvm/ADT/StringSet.h>

namespace hoist {
namespace {

/// glibc (and libcrypto digest) functions whose arguments are at most six integers or
/// pointers and whose result is an integer, a pointer or nothing. A few are variadic in name
/// only (open, openat, fcntl, ioctl: an optional integer third argument): their callees read
/// no vector register, so al does not matter. A name here that did not fit would read garbage
/// stack arguments, so the list holds only prototypes checked against the glibc headers.
const llvm::StringSet<> &integerFunctions() {
  static const llvm::StringSet<> names = {
      // <string.h>, <strings.h>
      "strlen", "strnlen", "strcmp", "strncmp", "strcpy", "strncpy", "strcat", "strncat",
      "strchr", "strrchr", "strchrnul", "strstr", "strcasestr", "strdup", "strndup", "strspn",
      "strcspn", "strpbrk", "strtok", "strtok_r", "strsep", "strcoll", "strxfrm", "strerror",
      "strerror_r", "__xpg_strerror_r", "strsignal", "strverscmp", "strcasecmp", "strncasecmp",
      "stpcpy", "stpncpy", "memcpy", "memmove", "memset", "memcmp", "memchr", "memrchr",
      "rawmemchr", "mempcpy", "memmem", "bzero", "explicit_bzero", "ffs", "__memcpy_chk",
      "__memmove_chk", "__memset_chk", "__mempcpy_chk", "__strcpy_chk", "__stpcpy_chk",
      "__strcat_chk", "__strncpy_chk", "__explicit_bzero_chk", "__rawmemchr", "__strdup",
      // <stdlib.h>
      "malloc", "calloc", "realloc", "reallocarray", "free", "aligned_alloc", "posix_memalign",
      "memalign", "valloc", "exit", "_exit", "_Exit", "abort", "atexit", "__cxa_atexit",
      "__cxa_finalize", "on_exit", "getenv", "secure_getenv", "setenv", "unsetenv", "putenv",
      "clearenv", "atoi", "atol", "atoll", "strtol", "strtoul", "strtoll", "strtoull",
      "strtoimax", "strtoumax", "__strtol_internal", "__strtoul_internal", "qsort", "qsort_r",
      "bsearch", "abs", "labs", "llabs", "div", "ldiv", "lldiv", "rand", "srand", "random",
      "srandom", "rand_r", "mkstemp", "mkostemp", "mkdtemp", "mktemp", "realpath",
      "canonicalize_file_name", "system", "getloadavg",
      // <ctype.h>, <wctype.h>, <wchar.h>
      "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc", "__ctype_get_mb_cur_max",
      "tolower", "toupper", "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph",
      "islower", "isprint", "ispunct", "isspace", "isupper", "isxdigit", "isascii", "iswalnum",
      "iswalpha", "iswblank", "iswcntrl", "iswdigit", "iswgraph", "iswlower", "iswprint",
      "iswpunct", "iswspace", "iswupper", "iswxdigit", "iswctype", "wctype", "towlower",
      "towupper", "towctrans", "wctrans", "wcwidth", "wcswidth", "mbrtowc", "mbrlen", "mbsinit",
      "mbtowc", "mblen", "wctomb", "wcrtomb", "btowc", "wctob", "mbstowcs", "wcstombs",
      "mbsrtowcs", "wcsrtombs", "wcslen", "wcscmp", "wcsncmp", "wcscpy", "wcschr", "wcsrchr",
      "wmemchr", "wmemcpy", "wmemmove", "wmemset", "wmemcmp", "wcscoll", "wcsxfrm",
      // <stdio.h> without the variadic ones
      "fopen", "fopen64", "fdopen", "freopen", "freopen64", "fclose", "fflush", "fflush_unlocked",
      "fread", "fread_unlocked", "fwrite", "fwrite_unlocked", "fgetc", "fgetc_unlocked", "getc",
      "getc_unlocked", "getchar", "getchar_unlocked", "fputc", "fputc_unlocked", "putc",
      "putc_unlocked", "putchar", "putchar_unlocked", "fputs", "fputs_unlocked", "puts", "fgets",
      "fgets_unlocked", "ungetc", "getline", "getdelim", "__getdelim", "feof", "feof_unlocked",
      "ferror", "ferror_unlocked", "clearerr", "clearerr_unlocked", "fileno", "fileno_unlocked",
      "fseek", "fseeko", "fseeko64", "ftell", "ftello", "ftello64", "rewind", "fgetpos",
      "fsetpos", "setvbuf", "setbuf", "setbuffer", "setlinebuf", "perror", "remove", "rename",
      "renameat", "tmpfile", "popen", "pclose", "__overflow", "__uflow", "__underflow",
      "__freading", "__fwriting", "__fpending", "__freadable", "__fwritable", "__flbf",
      "__fbufsize", "__fpurge", "__fsetlocking", "fpurge", "open_memstream", "fmemopen",
      "flockfile", "funlockfile", "ftrylockfile", "__fread_chk", "__fgets_chk",
      // <unistd.h>, <fcntl.h>, <sys/stat.h>, <dirent.h>
      "read", "write", "pread", "pread64", "pwrite", "pwrite64", "readv", "writev", "lseek",
      "lseek64", "close", "dup", "dup2", "dup3", "pipe", "pipe2", "open", "open64", "openat",
      "openat64", "__open_2", "__open64_2", "__openat_2", "creat", "fcntl", "fcntl64", "ioctl",
      "access", "faccessat", "euidaccess", "eaccess", "unlink", "unlinkat", "rmdir", "mkdir",
      "mkdirat", "link", "linkat", "symlink", "symlinkat", "readlink", "readlinkat", "chdir",
      "fchdir", "getcwd", "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat",
      "truncate", "ftruncate", "fsync", "fdatasync", "sync", "isatty", "ttyname", "ttyname_r",
      "getpid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getgroups", "setuid",
      "setgid", "umask", "sysconf", "pathconf", "fpathconf", "getpagesize", "gethostname",
      "sleep", "usleep", "alarm", "pause", "fork", "wait", "waitpid", "execv", "execvp",
      "execve", "stat", "stat64", "lstat", "lstat64", "fstat", "fstat64", "fstatat", "fstatat64",
      "__xstat", "__lxstat", "__fxstat", "__fxstatat", "statfs", "fstatfs", "statvfs",
      "fstatvfs", "utime", "utimes", "utimensat", "futimens", "futimesat", "mknod", "mkfifo",
      "mknodat", "mkfifoat", "opendir", "fdopendir", "readdir", "readdir64", "closedir",
      "rewinddir", "dirfd", "posix_fadvise", "posix_fadvise64", "fallocate", "copy_file_range",
      "splice", "mmap", "mmap64", "munmap", "msync", "madvise", "mincore", "getrandom",
      "getrlimit", "setrlimit", "getrusage", "sysinfo", "uname", "chroot", "nice",
      // <signal.h> masks (installing handlers is refused or falls back to Any)
      "sigemptyset", "sigfillset", "sigaddset", "sigdelset", "sigismember", "sigprocmask",
      "raise", "kill", "sigaltstack",
      // <time.h>
      "time", "clock_gettime", "clock_getres", "gettimeofday", "localtime", "localtime_r",
      "gmtime", "gmtime_r", "mktime", "timegm", "tzset", "strftime", "nanosleep", "clock",
      // <locale.h>, <libintl.h>, <langinfo.h>, <iconv.h>, <fnmatch.h>, <regex.h>, <getopt.h>
      "setlocale", "localeconv", "newlocale", "uselocale", "freelocale", "nl_langinfo",
      "gettext", "dgettext", "dcgettext", "ngettext", "dngettext", "dcngettext", "textdomain",
      "bindtextdomain", "bind_textdomain_codeset", "iconv_open", "iconv", "iconv_close",
      "fnmatch", "regcomp", "regexec", "regfree", "regerror", "re_compile_pattern",
      "re_search", "re_match", "re_set_syntax", "re_set_registers", "getopt", "getopt_long",
      "getopt_long_only",
      // <pwd.h>, <grp.h>
      "getpwnam", "getpwuid", "getgrnam", "getgrgid", "getpwnam_r", "getpwuid_r", "getlogin",
      // errno, assertions, stack protector
      "__errno_location", "__assert_fail", "__stack_chk_fail", "__chk_fail",
      // libcrypto digests (coreutils' md5sum and sha*sum may link them)
      "MD5_Init", "MD5_Update", "MD5_Final", "MD5", "SHA1_Init", "SHA1_Update", "SHA1_Final",
      "SHA1", "SHA224_Init", "SHA224_Update", "SHA224_Final", "SHA224", "SHA256_Init",
      "SHA256_Update", "SHA256_Final", "SHA256", "SHA384_Init", "SHA384_Update",
      "SHA384_Final", "SHA384", "SHA512_Init", "SHA512_Update", "SHA512_Final", "SHA512",
  };
  return names;
}

/// <math.h> double and float functions of one or two floating-point arguments (and frexp,
/// ldexp, modf with an int or a pointer), and the string-to-double conversions: arguments in
/// registers, the result in xmm0.
const llvm::StringSet<> &floatFunctions() {
  static const llvm::StringSet<> names = {
      "sqrt",  "sqrtf",  "cbrt",  "cbrtf",  "fabs",  "fabsf",  "floor", "floorf", "ceil",
      "ceilf", "round",  "roundf", "trunc", "truncf", "rint",  "rintf",  "nearbyint",
      "nearbyintf", "lround", "lroundf", "llround", "llroundf", "lrint", "lrintf", "llrint",
      "llrintf", "sin",  "sinf",  "cos",   "cosf",   "tan",   "tanf",   "asin",  "asinf",
      "acos",  "acosf",  "atan",  "atanf",  "atan2", "atan2f", "sinh",  "sinhf", "cosh",
      "coshf", "tanh",   "tanhf", "asinh", "asinhf", "acosh", "acoshf", "atanh", "atanhf",
      "exp",   "expf",   "exp2",  "exp2f",  "expm1", "expm1f", "log",   "logf",  "log2",
      "log2f", "log10",  "log10f", "log1p", "log1pf", "pow",  "powf",   "fmod",  "fmodf",
      "remainder", "remainderf", "hypot", "hypotf", "fmin", "fminf", "fmax", "fmaxf", "fdim",
      "fdimf", "fma",   "fmaf",   "copysign", "copysignf", "frexp", "frexpf", "ldexp",
      "ldexpf", "scalbn", "scalbnf", "modf", "modff", "erf",  "erff",   "erfc",  "erfcf",
      "tgamma", "tgammaf", "lgamma", "lgammaf", "strtod", "strtof", "atof", "difftime",
  };
  return names;
}

/// glibc functions declared with `...` (the checked and unchecked printf, scanf, error and
/// syslog families): each call sets al to at most the number of vector registers it passes.
/// The v* forms take a va_list, not `...`, and are not here (al is then arbitrary).
const llvm::StringSet<> &variadicFunctions() {
  static const llvm::StringSet<> names = {
      // <stdio.h>, <wchar.h>
      "printf", "fprintf", "dprintf", "sprintf", "snprintf", "asprintf", "__printf_chk",
      "__fprintf_chk", "__dprintf_chk", "__sprintf_chk", "__snprintf_chk", "__asprintf_chk",
      "wprintf", "fwprintf", "swprintf", "__wprintf_chk", "__fwprintf_chk", "__swprintf_chk",
      "obstack_printf", "__obstack_printf_chk", "scanf", "fscanf", "sscanf",
      "__isoc99_scanf", "__isoc99_fscanf", "__isoc99_sscanf", "__isoc23_scanf",
      "__isoc23_fscanf", "__isoc23_sscanf",
      // <error.h>, <err.h>, <syslog.h>
      "error", "error_at_line", "err", "errx", "warn", "warnx", "syslog", "__syslog_chk",
  };
  return names;
}

/// glibc functions that run no code of the program: they take no function pointer and no
/// FILE (a fopencookie stream runs the program's functions), run no handlers, and call only
/// glibc itself (malloc has no hooks since glibc 2.34; gconv modules are glibc's own).
const llvm::StringSet<> &leafFunctions() {
  static const llvm::StringSet<> names = {
      // <string.h>, <strings.h>
      "strlen", "strnlen", "strcmp", "strncmp", "strcpy", "strncpy", "strcat", "strncat",
      "strchr", "strrchr", "strchrnul", "strstr", "strcasestr", "strdup", "strndup", "strspn",
      "strcspn", "strpbrk", "strcoll", "strxfrm", "strverscmp", "strcasecmp", "strncasecmp",
      "stpcpy", "stpncpy", "memcpy", "memmove", "memset", "memcmp", "memchr", "memrchr",
      "rawmemchr", "mempcpy", "memmem", "bzero", "explicit_bzero", "__rawmemchr", "__strdup",
      // malloc
      "malloc", "calloc", "realloc", "reallocarray", "free",
      // <ctype.h>, <wctype.h>, <wchar.h>
      "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc", "__ctype_get_mb_cur_max",
      "tolower", "toupper", "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph",
      "islower", "isprint", "ispunct", "isspace", "isupper", "isxdigit", "iswalnum",
      "iswalpha", "iswblank", "iswcntrl", "iswdigit", "iswgraph", "iswlower", "iswprint",
      "iswpunct", "iswspace", "iswupper", "iswxdigit", "towlower", "towupper", "wcwidth",
      "mbrtowc", "mbrlen", "mbsinit", "mbtowc", "mblen", "btowc", "wctob", "wcrtomb", "wcslen",
      "wmemchr", "wmemcpy", "wmemmove", "wmemset", "wmemcmp",
      // errno
      "__errno_location",
  };
  return names;
}

} // namespace

bool importMayCallBack(llvm::StringRef name) {
  return !leafFunctions().contains(name) && !floatFunctions().contains(name);
}

ImportShape importShape(llvm::StringRef name) {
  if (integerFunctions().contains(name))
    return ImportShape::Integer;
  if (floatFunctions().contains(name))
    return ImportShape::Float;
  if (variadicFunctions().contains(name))
    return ImportShape::Variadic;
  return ImportShape::Any;
}

} // namespace hoist
