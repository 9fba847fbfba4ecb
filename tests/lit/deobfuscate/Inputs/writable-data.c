// Branches on writable globals (writable-data.test): `mode` (.bss) and `level` (.data) are set
// by main before the calls, so their file values are not what the functions read; `steps`
// (.data) is written by no instruction and its address never escapes, so its file values are;
// `scratch` is stored by the function itself before it reads it.
// Each taken side calls puts, so that compilers keep a branch rather than a cmov.
#include <stdio.h>

int mode;
int level = 2;
int steps[4] = {1, 2, 3, 4};
// Keeps `steps` from being the last object of .data: the C runtime takes the address of
// `__TMC_END__`, just past .data, which would also be a pointer to one past its end.
int volume = 9;
volatile int scratch;

__attribute__((noinline)) long by_mode(long x) {
  if (mode == 1) {
    puts("mode one");
    return x * 3;
  }
  return x ^ 0x55;
}

__attribute__((noinline)) long by_level(long x) {
  if (level == 2) {
    puts("level two");
    return x * 5;
  }
  return x - 9;
}

__attribute__((noinline)) long by_steps(long x) {
  if (steps[2] == 3) {
    puts("step three");
    return x * 7;
  }
  return x + 11;
}

__attribute__((noinline)) long own_store(long x) {
  scratch = 4;
  if (scratch == 4) {
    puts("scratch four");
    return x * 13;
  }
  return x + 17;
}

int main(int argc, char **argv) {
  (void)argv;
  mode = argc;
  level = argc;
  printf("%ld %ld %ld %ld %d\n", by_mode(argc), by_level(argc), by_steps(argc), own_store(argc),
         volume);
  return 0;
}
