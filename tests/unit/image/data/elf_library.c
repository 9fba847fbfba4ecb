/* An ELF shared object: exported functions and data, and an import through its PLT. */
#include <stdio.h>

int library_counter = 7;

int library_add(int a, int b) { return a + b + library_counter; }

void library_hello(void) { puts("hello from the library"); }
