/* Calls of Windows API and msvcrt functions that brightening knows only from the prototype
   table generated from mingw-w64's headers (lit brighten/win32-prototypes-pe.test): a
   kernel32 function of two DWORDs, user32's MessageBoxA, a LONG (4 bytes under Win64) and
   msvcrt's _hypot of two doubles. */
#include <windows.h>
#include <math.h>

__declspec(noinline) int beep_twice(DWORD frequency) {
  return Beep(frequency, 100) && Beep(frequency * 2, 50);
}

__declspec(noinline) int ask(const char *text) {
  return MessageBoxA(NULL, text, "hoist", MB_OKCANCEL);
}

__declspec(noinline) LONG rewind_to(HANDLE file, LONG distance) {
  return (LONG)SetFilePointer(file, distance, NULL, FILE_BEGIN);
}

__declspec(noinline) double diagonal(double width, double height) {
  return _hypot(width, height);
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 5)
    return beep_twice(440) + ask("?") + (int)rewind_to(NULL, 3);
  return (int)diagonal(3.0, 4.0);
}
