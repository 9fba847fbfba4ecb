/* A PE test program: imports from the test DLL, KERNEL32.dll and msvcrt.dll. */
#include <stdio.h>
#include <windows.h>

__declspec(dllimport) int library_add(int a, int b);
__declspec(dllimport) int library_twice(int a);

int counter = 42;
const char greeting[] = "hello from hoist";

int square(int x) { return x * x; }

int main(int argc, char **argv) {
  (void)argv;
  DWORD ticks = GetTickCount();
  puts(greeting);
  printf("%d %d %lu\n", square(argc), library_add(counter, library_twice(argc)), ticks);
  return 0;
}
