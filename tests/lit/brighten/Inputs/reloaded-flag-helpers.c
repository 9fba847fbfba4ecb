// The functions reloaded-flag.s calls, and a main, to link it into a program to lift.
#include <stddef.h>
#include <stdio.h>

static size_t sink;

void point_somewhere(size_t **slot) { *slot = &sink; }

void show_length(size_t *length) { printf("length %zu\n", *length); }

int main(void) { return 0; }
