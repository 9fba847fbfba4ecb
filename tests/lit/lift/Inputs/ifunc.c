/* An IFUNC of the library's own: `add` is bound at load time to what resolve_add returns. */
static int add_portable(int a, int b) { return a + b; }

static int (*resolve_add(void))(int, int) { return add_portable; }

int add(int a, int b) __attribute__((ifunc("resolve_add")));
