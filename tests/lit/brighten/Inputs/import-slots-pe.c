/* Calls of Windows imports through the import address table (issue 10, lit
   brighten/import-slots-pe.test): declared dllimport as windows.h declares them, calls go
   through the IAT slot (`call [rip+__imp_X]`), or through a register loaded from it (at -O0
   before each call; at -O2 once before a loop). */
typedef void *HANDLE;
typedef unsigned long DWORD;
__declspec(dllimport) HANDLE GetStdHandle(DWORD);
__declspec(dllimport) int WriteConsoleA(HANDLE, const void *, DWORD, DWORD *, void *);
__declspec(dllimport) unsigned long long strlen(const char *);

int write_times(const char *s, int n) {
  DWORD written = 0, total = 0;
  HANDLE out = GetStdHandle((DWORD)-11);
  for (int i = 0; i < n; ++i) {
    WriteConsoleA(out, s, (DWORD)strlen(s), &written, 0);
    total += written;
  }
  return (int)total;
}

int main(void) { return write_times("x", 1); }
