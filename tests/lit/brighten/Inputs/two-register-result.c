// A 16-byte struct returned by value comes back in RAX:RDX (two-register-result.test).
struct pair { long first; long second; };
__attribute__((noinline)) struct pair swapped(long a, long b) {
  struct pair p = {b, a + b};
  return p;
}
int main(int argc, char **argv) { return (int)swapped(argc, 2).second; }
