/* Data holding an address the linker wrote, in an executable without relocations (-no-pie),
   and functions that hand the address of that data on. */
static int value = 7;
int *current = &value;           /* holds an address: a pointer holder */
int plain[4] = {1, 2, 3, 4};     /* holds none */

__attribute__((noinline)) int follow(int **where) { return **where; }
int through_holder(void) { return follow(&current) + 1; }
int **holder_address(void) { return &current; }
__attribute__((noinline)) int sum(const int *values) { return values[0] + values[3]; }
int through_plain(void) { return sum(plain) + 1; }
