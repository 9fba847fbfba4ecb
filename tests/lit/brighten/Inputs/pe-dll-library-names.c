/* A DLL that defines functions under C library names (lit brighten/pe-dll-library-names.test),
   as msvcrt.dll does: its own strlen is code to brighten, not msvcrt's strlen to call; and a
   function that calls msvcrt's printf, which is variadic, is declined with the reason. */
#include <stddef.h>
#include <stdio.h>

__declspec(dllexport) size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    ++n;
  return n;
}

__declspec(dllexport) int shout(const char *s) { return printf("%s!\n", s); }
