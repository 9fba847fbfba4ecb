/* The C runtime functions whose writes Hoist's analyses rely on (the string and memory
   functions mingw programs call), redeclared with the SAL annotations the Windows SDK's
   C runtime headers give them (WindowsSal.h says why). */
#include <stddef.h>
#include "WindowsSal.h"

HOIST_WRITES_ONLY_OUT_PARAMETERS size_t __cdecl strlen(_In_ const char *_Str);
HOIST_WRITES_ONLY_OUT_PARAMETERS size_t __cdecl strnlen(_In_reads_(_MaxCount) const char *_Str,
                                                        _In_ size_t _MaxCount);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl strcmp(_In_ const char *_Str1, _In_ const char *_Str2);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl strncmp(_In_reads_(_MaxCount) const char *_Str1,
                                                     _In_reads_(_MaxCount) const char *_Str2,
                                                     _In_ size_t _MaxCount);
HOIST_WRITES_ONLY_OUT_PARAMETERS char *__cdecl strchr(_In_ const char *_Str, _In_ int _Val);
HOIST_WRITES_ONLY_OUT_PARAMETERS char *__cdecl strrchr(_In_ const char *_Str, _In_ int _Ch);
HOIST_WRITES_ONLY_OUT_PARAMETERS char *__cdecl strstr(_In_ const char *_Str,
                                                      _In_ const char *_SubStr);
HOIST_WRITES_ONLY_OUT_PARAMETERS size_t __cdecl strspn(_In_ const char *_Str,
                                                       _In_ const char *_Control);
HOIST_WRITES_ONLY_OUT_PARAMETERS size_t __cdecl strcspn(_In_ const char *_Str,
                                                        _In_ const char *_Control);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl memcmp(_In_reads_bytes_(_Size) const void *_Buf1,
                                                    _In_reads_bytes_(_Size) const void *_Buf2,
                                                    _In_ size_t _Size);
HOIST_WRITES_ONLY_OUT_PARAMETERS void *__cdecl memchr(_In_reads_bytes_(_MaxCount) const void *_Buf,
                                                      _In_ int _Val, _In_ size_t _MaxCount);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl atoi(_In_ const char *_String);
HOIST_WRITES_ONLY_OUT_PARAMETERS long __cdecl atol(_In_ const char *_String);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl abs(_In_ int _X);
HOIST_WRITES_ONLY_OUT_PARAMETERS long __cdecl labs(_In_ long _X);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl toupper(_In_ int _C);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl tolower(_In_ int _C);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl puts(_In_ const char *_Buffer);
HOIST_WRITES_ONLY_OUT_PARAMETERS int __cdecl putchar(_In_ int _Ch);
HOIST_WRITES_ONLY_OUT_PARAMETERS void *__cdecl memset(_Out_writes_bytes_all_(_Size) void *_Dst,
                                                      _In_ int _Val, _In_ size_t _Size);
HOIST_WRITES_ONLY_OUT_PARAMETERS void *__cdecl memcpy(_Out_writes_bytes_all_(_Size) void *_Dst,
                                                      _In_reads_bytes_(_Size) const void *_Src,
                                                      _In_ size_t _Size);
HOIST_WRITES_ONLY_OUT_PARAMETERS void *__cdecl memmove(_Out_writes_bytes_all_(_Size) void *_Dst,
                                                       _In_reads_bytes_(_Size) const void *_Src,
                                                       _In_ size_t _Size);
