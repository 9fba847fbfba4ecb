// Calls the brightened fill_and_sum (section-end.c). Linked after it, its own data and bss
// land between the brightened object's .data and .bss: code that took one past .data's end
// for .bss's start would read runner_data.
#include <stdio.h>
long fill_and_sum(int v);
int runner_data[8] = {1, 1, 1, 1, 1, 1, 1, 1};
int runner_bss[8];
int main(void) {
  printf("%ld %ld\n", fill_and_sum(1), fill_and_sum(7));
  return runner_bss[0];
}
