/* What mingw-w64's Windows headers leave out and Hoist needs, restated from the Windows SDK
   documentation and parsed like the headers (generate_windows_prototypes.py):

   - SAL annotations (WindowsSal.h): the few Win32 functions whose writes Hoist's analyses
     rely on, redeclared with the annotations the SDK gives them.
   - noreturn where the headers omit it, and ntdll functions no user-mode header declares. */
#include <windows.h>
#include "WindowsSal.h"

HOIST_WRITES_ONLY_OUT_PARAMETERS HANDLE WINAPI GetStdHandle(_In_ DWORD nStdHandle);
HOIST_WRITES_ONLY_OUT_PARAMETERS DWORD WINAPI GetLastError(void);
HOIST_WRITES_ONLY_OUT_PARAMETERS VOID WINAPI SetLastError(_In_ DWORD dwErrCode);
HOIST_WRITES_ONLY_OUT_PARAMETERS WINBOOL WINAPI WriteConsoleA(
    _In_ HANDLE hConsoleOutput, _In_reads_(nNumberOfCharsToWrite) CONST VOID *lpBuffer,
    _In_ DWORD nNumberOfCharsToWrite, _Out_opt_ LPDWORD lpNumberOfCharsWritten,
    _Reserved_ LPVOID lpReserved);
HOIST_WRITES_ONLY_OUT_PARAMETERS WINBOOL WINAPI WriteConsoleW(
    _In_ HANDLE hConsoleOutput, _In_reads_(nNumberOfCharsToWrite) CONST VOID *lpBuffer,
    _In_ DWORD nNumberOfCharsToWrite, _Out_opt_ LPDWORD lpNumberOfCharsWritten,
    _Reserved_ LPVOID lpReserved);
HOIST_WRITES_ONLY_OUT_PARAMETERS DWORD WINAPI GetTickCount(void);
HOIST_WRITES_ONLY_OUT_PARAMETERS DWORD WINAPI GetCurrentProcessId(void);
HOIST_WRITES_ONLY_OUT_PARAMETERS DWORD WINAPI GetCurrentThreadId(void);
HOIST_WRITES_ONLY_OUT_PARAMETERS WINBOOL WINAPI QueryPerformanceCounter(
    _Out_ LARGE_INTEGER *lpPerformanceCount);
HOIST_WRITES_ONLY_OUT_PARAMETERS VOID WINAPI GetSystemTimeAsFileTime(
    _Out_ LPFILETIME lpSystemTimeAsFileTime);

/* FatalExit and FatalAppExit end the process (the SDK: "terminates the process"). */
DECLSPEC_NORETURN VOID WINAPI FatalExit(int ExitCode);
DECLSPEC_NORETURN VOID WINAPI FatalAppExitA(UINT uAction, LPCSTR lpMessageText);
DECLSPEC_NORETURN VOID WINAPI FatalAppExitW(UINT uAction, LPCWSTR lpMessageText);

/* Functions the Windows SDK declares and mingw-w64's headers do not: the MCI driver
   helpers of mmddk.h, and the thread descriptions of processthreadsapi.h. */
WINBOOL WINAPI mciDriverNotify(HANDLE hwndCallback, UINT wDeviceID, UINT uStatus);
DWORD_PTR WINAPI mciGetDriverData(UINT wDeviceID);
WINBOOL WINAPI mciSetDriverData(UINT wDeviceID, DWORD_PTR dwData);
HRESULT WINAPI SetThreadDescription(HANDLE hThread, PCWSTR lpThreadDescription);
HRESULT WINAPI GetThreadDescription(HANDLE hThread, PWSTR *ppszThreadDescription);

/* The delay-load helper that the linker's delay-load thunks call (the SDK's
   libloaderapi2.h declares it; mingw-w64's headers do not). */
PVOID WINAPI ResolveDelayLoadedAPI(PVOID ParentModuleBase, PCVOID DelayloadDescriptor,
                                   PVOID FailureDllHook, PVOID FailureSystemHook,
                                   PVOID ThunkAddress, ULONG Flags);

/* ntdll's process and thread exits never return; RtlRaiseException returns when a handler
   continues a continuable exception, as RaiseException does. */
DECLSPEC_NORETURN VOID NTAPI RtlExitUserProcess(LONG ExitStatus);
DECLSPEC_NORETURN VOID NTAPI RtlExitUserThread(LONG ExitStatus);
VOID NTAPI RtlRaiseException(PEXCEPTION_RECORD ExceptionRecord);
