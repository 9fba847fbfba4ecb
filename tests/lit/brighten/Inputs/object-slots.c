// A -fPIC library reaches its exported objects, and the C library's `stdout`, through GOT
// slots the loader fills by name (object-slots.test).
#include <stdio.h>
unsigned table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
const unsigned constants[4] = {7, 8, 9, 10};
unsigned get(int i) { return table[i & 7] + constants[i & 3]; }
void bump(int i) { table[i & 7] += 100; }
unsigned peek(int i) { return table[i & 7]; }
int say(const char *text) { return fputs(text, stdout); }
// Weak and undefined: its slot holds 0 unless another module defines it.
extern void hook(void) __attribute__((weak));
int has_hook(void) { return hook != 0; }
