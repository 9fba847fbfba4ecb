// A switch whose dense part (100..202) is a jump table behind `lea -0x64(%rbx),%eax; cmp
// $0x66,%eax; ja`: InstCombine switches on the byte of RBX, whose range only the checked
// 32-bit value tells (zstd's option printer).
#include <stdio.h>
int level = 2;
__attribute__((noinline)) long check(int kind, long value) { return value * 3 + kind; }
__attribute__((noinline)) long set_parameter(int *stored, int param, long value) {
  long r;
  if (level > 3) fprintf(stderr, "set %d to %ld\n", param, value);
  switch (param) {
  case 100: r = check(2, value); break;
  case 101: r = check(3, value); break;
  case 102: r = check(4, value); break;
  case 103: r = check(5, value); break;
  case 104: r = check(6, value); break;
  case 105: r = check(0, value); break;
  case 106: r = check(1, value); break;
  case 107: r = check(2, value); break;
  case 130: r = check(4, value); break;
  case 160: r = check(6, value); break;
  case 161: r = check(0, value); break;
  case 200: r = check(4, value); break;
  case 201: r = check(5, value); break;
  case 202: r = check(6, value); break;
  case 10: r = value; break;
  case 400: r = -value; break;
  case 401: r = value + 1; break;
  case 402: r = value * 2; break;
  case 1000: r = 1; break;
  case 1001: r = 2; break;
  case 1002: r = 3; break;
  case 1004: r = 4; break;
  case 1007: r = 5; break;
  case 1009: r = 6; break;
  default: return -1;
  }
  *stored = param;
  return r;
}
