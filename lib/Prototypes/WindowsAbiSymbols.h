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
