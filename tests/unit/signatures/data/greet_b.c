int puts(const char *);
int greet_b(void) { return puts("hello from b") + 1; }
