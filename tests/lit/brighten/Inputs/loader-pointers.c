#include <stdio.h>
/* Pointers the dynamic loader writes into a PIE's data: R_X86_64_RELATIVE into .data and
   .data.rel.ro, R_X86_64_64 against a library's object. The file holds no usable value. */
const char *greeting = "hello";
static const char *const names[] = {"zero", "one", "two"};
FILE **diagnostics = &stderr;
static int increment(int value) { return value + 1; }
static int decrement(int value) { return value - 1; }
static int (*const operations[])(int) = {increment, decrement};

int greet(void) { return puts(greeting); }
const char *name_of(unsigned index) { return index < 3 ? names[index] : "many"; }
int complain(const char *text) { return fputs(text, *diagnostics); }
/* A code address read from data: the original function, declined. */
int (*operation(unsigned index))(int) { return operations[index & 1]; }
