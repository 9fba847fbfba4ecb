/* The native API (Rtl*, Nt*, Zw*) that ntdll.dll exports and no user-mode header declares:
   mingw-w64's driver kit headers, parsed on their own (they conflict with <windows.h>) and
   consulted for ntdll.dll after WindowsHeaders.h (generate_windows_prototypes.py). */
#include <ntifs.h>
