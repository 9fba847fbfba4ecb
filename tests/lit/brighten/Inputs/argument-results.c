// Functions whose result is one of their arguments unchanged (argument-results.test).
__attribute__((noinline)) long first(long a) { return a; }
__attribute__((noinline)) long second(long a, long b) { return b; }
__attribute__((noinline)) long third(long a, long b, long c) { return c; }
__attribute__((noinline)) double second_double(double a, double b) { return b; }
__attribute__((noinline)) float third_float(float a, float b, float c) { return c; }
int main(int argc, char **argv) {
  return (int)(first(argc) + second(1, argc) + third(1, 2, argc) + second_double(1, argc) +
               third_float(1, 2, argc));
}
