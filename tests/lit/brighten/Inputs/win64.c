/* Win64 positional arguments for win64-mingw-O1.test: floating-point arguments in the XMM
 * register of their position, the fifth argument on the stack above the home area. */
double mix_positions(int n, double x, float y) { return x * y + n; }
long long add5(long long a, long long b, long long c, long long d, long long e) {
  return a + b + c + d + e * 3;
}
long long call_add5(long long x) { return add5(x, 1, 2, 3, x) + 1; }
/* An import from msvcrt.dll, a Windows DLL: called in its convention. */
unsigned long long length_of(const char *s);
#include <string.h>
unsigned long long length_of(const char *s) { return strlen(s); }
int main(void) { return 0; }
