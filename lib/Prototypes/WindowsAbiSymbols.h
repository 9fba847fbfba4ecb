/* C runtime functions that compilers and the runtime's own code call but mingw-w64's
   headers do not declare, or declare without saying they never return. The prototypes are
   the ones the Microsoft C runtime defines them with (vcruntime and ucrt sources as shipped
   with Visual C++). */
#include <stdint.h>

/* The throw of a C++ exception (MSVC's `throw`): it unwinds, never returns. */
__declspec(noreturn) void __stdcall _CxxThrowException(void *exception, void *throwInfo);
/* The /GS stack-cookie failure: it terminates the process (fast fail). */
__declspec(noreturn) void __cdecl __report_gsfailure(uintptr_t stackCookie);
/* The invalid-parameter handler of the checked STL and CRT: the _noreturn variant invokes
   the handler and then terminates; the other returns to its caller (which returns EINVAL). */
__declspec(noreturn) void __cdecl _invalid_parameter_noinfo_noreturn(void);
void __cdecl _invalid_parameter_noinfo(void);
/* The CRT's assert failure prints the message and calls abort(): mingw-w64's <assert.h>
   declares it without noreturn. */
__declspec(noreturn) void __cdecl _assert(const char *message, const char *file, unsigned line);

/* The Universal C runtime's start-up entry points, which the start files of a program linked
   against ucrtbase call (corecrt_startup.h in the SDK). */
#include <stddef.h>
void __cdecl _set_app_type(int appType);
int __cdecl _configure_narrow_argv(int mode);
int __cdecl _configure_wide_argv(int mode);
int __cdecl _initialize_narrow_environment(void);
int __cdecl _initialize_wide_environment(void);
char **__cdecl _get_initial_narrow_environment(void);
wchar_t **__cdecl _get_initial_wide_environment(void);
/* The classification behind fpclassify (corecrt_math.h). */
short __cdecl _dclass(double x);
short __cdecl _fdclass(float x);
/* The locale accessors that the C runtime's inline locale code calls. */
unsigned long *__cdecl ___lc_handle_func(void);
wchar_t **__cdecl ___lc_locale_name_func(void);
unsigned int __cdecl ___lc_collate_cp_func(void);
/* The invalid-parameter handler's full form (the debug CRT calls it with the details). */
void __cdecl _invalid_parameter(const wchar_t *expression, const wchar_t *function,
                                const wchar_t *file, unsigned int line, uintptr_t reserved);
