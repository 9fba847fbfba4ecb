// greet_a and greet_b differ only in the string they print: the data decides between them.
// Built -fPIC, so that the string is reached by a `lea` relative to RIP.
int puts(const char *);
int greet_a(void) { return puts("hello from a") + 1; }
