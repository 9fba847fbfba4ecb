#include <stdio.h>
int count_until_bail(int);
int main(void) { printf("%d %d\n", count_until_bail(3), count_until_bail(12)); return 0; }
