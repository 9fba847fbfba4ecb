/* Dense switches that gcc and clang compile to jump tables. gcc -O1 bounds the index in a
   32-bit register (`cmp $4,%edi; ja`) and InstCombine turns the table index into
   `and %rdi, 7`, whose range LLVM does not connect to the check. */
int pick5(int x) {
  switch (x) {
  case 0: return 11;
  case 1: return 27;
  case 2: return 3;
  case 3: return 94;
  case 4: return 5;
  default: return -1;
  }
}
int act7(int x, int y) {
  switch (x) {
  case 1: return y + 1;
  case 2: return y * 3;
  case 3: return y - 7;
  case 4: return y << 2;
  case 5: return y ^ 0x55;
  case 6: return y / 3;
  case 7: return -y;
  default: return y;
  }
}
