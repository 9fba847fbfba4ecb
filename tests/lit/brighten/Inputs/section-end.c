// Arrays that end their sections: the loops' bounds, one past each array, are one past .data's end
// (.bss's start) and one past .bss's end (tests/lit/brighten/section-end.test).
int data_table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
static int bss_table[1000];

__attribute__((noinline)) long fill_and_sum(int v) {
  for (int *p = bss_table; p != bss_table + 1000; ++p)
    *p = v ^ (int)(p - bss_table);
  long sum = 0;
  for (int *p = bss_table; p != bss_table + 1000; ++p)
    sum += *p;
  for (int *p = data_table; p != data_table + 16; ++p)
    sum += *p * v;
  return sum;
}

int main(int argc, char **argv) {
  (void)argv;
  return fill_and_sum(argc) == 0;
}
