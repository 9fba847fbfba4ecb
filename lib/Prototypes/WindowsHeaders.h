/* The translation unit of the Windows prototype table (generate_windows_prototypes.py):
   mingw-w64's Windows API headers for the DLLs the table covers, and its Microsoft C runtime
   headers (msvcrt flavour). Which DLL exports each function comes from mingw-w64's import
   libraries, not from here. */
#define SECURITY_WIN32
/* Before <windows.h>, which would otherwise bring in the older <winsock.h>. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <winternl.h>
#include <ntsecapi.h>
#include <shlwapi.h>
#include <shlobj.h>
#include <shellapi.h>
#include <commctrl.h>
#include <commdlg.h>
#include <setupapi.h>
#include <imm.h>
#include <bcrypt.h>
#include <ncrypt.h>
#include <dbghelp.h>
#include <iphlpapi.h>
#include <wininet.h>
#include <msi.h>
#include <propsys.h>
#include <vfw.h>
#include <msacm.h>
#include <urlmon.h>
#include <d3dcompiler.h>
#include <mfapi.h>
#include <hidsdi.h>
#include <uxtheme.h>
#include <dwmapi.h>
#include <psapi.h>
#include <userenv.h>
#include <wintrust.h>
#include <mscat.h>
#include <secext.h>
#include <sspi.h>
#include <wtsapi32.h>
#include <powrprof.h>
#include <cfgmgr32.h>
#include <usp10.h>
#include <tlhelp32.h>
#include <winscard.h>
#include <lm.h>
#include <olectl.h>
#include <oleacc.h>
#include <dsound.h>
#include <dinput.h>
#include <d3d9.h>
#include <d3d11.h>
#include <dxgi.h>
#include <ddraw.h>
#include <evntrace.h>
#include <evntprov.h>
#include <winldap.h>
#include <icmpapi.h>
#include <mswsock.h>
#include <windns.h>
#include <wincodec.h>
#include <winusb.h>
#include <wlanapi.h>
#include <GL/gl.h>

#include "WindowsCrtHeaders.h"
#include "WindowsAnnotations.h"
