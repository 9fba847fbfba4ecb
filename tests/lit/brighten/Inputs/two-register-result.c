// Results in RAX:RDX and XMM0:XMM1 (two-register-result.test): a 16-byte struct, an __int128
// and a struct of two doubles returned by value, callers that read both halves, and a function
// whose second half is its third argument left in RDX, which is no value of its own there.
struct pair { long first; long second; };
struct point { double x, y; };

__attribute__((noipa)) struct pair swapped(long a, long b) {
  struct pair p = {b, a + b};
  return p;
}

__attribute__((noipa)) __int128 widened(long a) { return (__int128)a * 0x100000001LL << 40; }

__attribute__((noipa)) long sum_of(long a, long b) {
  struct pair p = swapped(a, b);
  return p.first * 3 + p.second;
}

__attribute__((noipa)) struct pair kept(long a, long b, long c) {
  (void)b;
  return (struct pair){a, c};
}

__attribute__((noipa)) long uses_kept(long x) {
  struct pair p = kept(x, 1, x + 2);
  return p.first * p.second;
}

__attribute__((noipa)) struct point rotated(double x, double y) { return (struct point){-y, x}; }

__attribute__((noipa)) double spread(double x, double y) {
  struct point p = rotated(x, y);
  return p.x * p.x + p.y * 3;
}

int main(int argc, char **argv) {
  (void)argv;
  __int128 wide = widened(argc);
  return (int)(swapped(argc, 2).second + sum_of(argc, 3) + (long)(wide >> 64) + (long)wide +
               uses_kept(argc) + (long)rotated(argc, 1).y + (long)spread(argc, 2));
}
