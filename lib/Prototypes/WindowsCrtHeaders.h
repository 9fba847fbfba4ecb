/* The Microsoft C runtime as mingw-w64 declares it: parsed on its own for ucrtbase.dll and
   the api-ms-win-crt-* sets (with _UCRT, whose headers declare the __stdio_common_* entry
   points ucrtbase exports), and inside WindowsHeaders.h for msvcrt.dll and ntdll's copies
   of the string functions (generate_windows_prototypes.py). */
#include <assert.h>
#include <complex.h>
#include <conio.h>
#include <ctype.h>
#include <direct.h>
#include <errno.h>
#include <excpt.h>
#include <fcntl.h>
#include <fenv.h>
#include <float.h>
#include <io.h>
#include <locale.h>
#include <malloc.h>
#include <math.h>
#include <mbctype.h>
#include <mbstring.h>
#include <process.h>
#include <search.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timeb.h>
#include <sys/utime.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>

#include "WindowsAbiSymbols.h"
#include "WindowsCrtAnnotations.h"
