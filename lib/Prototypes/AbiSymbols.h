/* Functions that compilers and start files call but no installed C header declares: the
   stack protector, glibc's fortification failure, the start-up code's entry into glibc and
   the C++ runtime's throw and unwind entries. Their prototypes are the ones glibc, libgcc
   and libstdc++ define them with. */
#include <stddef.h>

struct _Unwind_Exception;

void __stack_chk_fail(void) __attribute__((__noreturn__));
void __stack_chk_fail_local(void) __attribute__((__noreturn__));
void __fortify_fail(const char *message) __attribute__((__noreturn__));
void __chk_fail(void) __attribute__((__noreturn__));
int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv,
                      void (*init)(void), void (*fini)(void), void (*rtld_fini)(void),
                      void *stack_end) __attribute__((__noreturn__));
int __cxa_atexit(void (*function)(void *), void *argument, void *dso_handle);
void __cxa_finalize(void *dso_handle);
void __cxa_throw(void *exception, void *type_info, void (*destructor)(void *))
    __attribute__((__noreturn__));
void __cxa_rethrow(void) __attribute__((__noreturn__));
void __cxa_bad_cast(void) __attribute__((__noreturn__));
void __cxa_bad_typeid(void) __attribute__((__noreturn__));
void __cxa_call_unexpected(void *exception) __attribute__((__noreturn__));
void *__cxa_allocate_exception(size_t size) __attribute__((__nothrow__));
void *__cxa_begin_catch(void *exception) __attribute__((__nothrow__));
void __cxa_end_catch(void);
/* <unwind.h> declares it without noreturn; libgcc's never returns. */
void _Unwind_Resume(struct _Unwind_Exception *exception) __attribute__((__noreturn__));

/* The fortified string functions, which <bits/string_fortified.h> reaches only through
   compiler builtins (__builtin___memcpy_chk): the compiler emits calls to these symbols. */
void *__memcpy_chk(void *dest, const void *src, size_t length, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
void *__memmove_chk(void *dest, const void *src, size_t length, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
void *__mempcpy_chk(void *dest, const void *src, size_t length, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
void *__memset_chk(void *dest, int byte, size_t length, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
char *__strcpy_chk(char *dest, const char *src, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
char *__stpcpy_chk(char *dest, const char *src, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
char *__strncpy_chk(char *dest, const char *src, size_t length, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
char *__stpncpy_chk(char *dest, const char *src, size_t length, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
char *__strcat_chk(char *dest, const char *src, size_t destLength)
    __attribute__((__nothrow__, __leaf__));
char *__strncat_chk(char *dest, const char *src, size_t length, size_t destLength)
    __attribute__((__nothrow__, __leaf__));

/* std::terminate() under its Itanium-mangled name, which is a valid C identifier. */
void _ZSt9terminatev(void) __attribute__((__noreturn__));

/* The dynamic linker's entry for general-dynamic thread-local accesses (glibc's internal
   <tls.h>; x86-64 passes a pointer to the module and offset pair). */
void *__tls_get_addr(void *index) __attribute__((__nothrow__, __leaf__));

/* Exported by glibc but declared only for standards older than the _GNU_SOURCE view
   (POSIX.1-2008 dropped it); binaries built against those still import it. */
typedef void (*__hoist_sighandler_t)(int);
__hoist_sighandler_t bsd_signal(int signal, __hoist_sighandler_t handler)
    __attribute__((__nothrow__, __leaf__));

/* The fortified open family, which <bits/fcntl2.h> declares only for compilers with GCC's
   __va_arg_pack_len (clang has none), as glibc defines them: GCC's _FORTIFY_SOURCE turns an
   open() without a mode into these. */
int __open_2(const char *path, int flags) __attribute__((__nonnull__(1)));
int __open64_2(const char *path, int flags) __attribute__((__nonnull__(1)));
int __openat_2(int directory, const char *path, int flags) __attribute__((__nonnull__(2)));
int __openat64_2(int directory, const char *path, int flags) __attribute__((__nonnull__(2)));

/* nl_langinfo_l under glibc's exported internal name, which libstdc++'s locale code calls:
   a program linked with -static-libstdc++ (binutils' gold and dwp) imports it. No C header
   declares it. */
#include <langinfo.h>
char *__nl_langinfo_l(nl_item item, locale_t locale) __attribute__((__nothrow__, __leaf__));

/* The stat family under the versioned names glibc 2.32 and older compiled stat() and its
   siblings into: glibc still exports them as compatibility symbols, and programs built then
   (Debian 12's make) import them. The version argument selects the struct layout. */
struct stat;
struct stat64;
int __xstat(int version, const char *path, struct stat *buffer) __attribute__((__nothrow__));
int __lxstat(int version, const char *path, struct stat *buffer) __attribute__((__nothrow__));
int __fxstat(int version, int descriptor, struct stat *buffer) __attribute__((__nothrow__));
int __fxstatat(int version, int directory, const char *path, struct stat *buffer, int flags)
    __attribute__((__nothrow__));
int __xstat64(int version, const char *path, struct stat64 *buffer) __attribute__((__nothrow__));
int __lxstat64(int version, const char *path, struct stat64 *buffer)
    __attribute__((__nothrow__));
int __fxstat64(int version, int descriptor, struct stat64 *buffer) __attribute__((__nothrow__));
int __fxstatat64(int version, int directory, const char *path, struct stat64 *buffer,
                 int flags) __attribute__((__nothrow__));
