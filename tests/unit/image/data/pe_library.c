/* A DLL: exported functions and data (named in pe_library.def, which adds a forwarder). */
int library_counter = 7;

int library_add(int a, int b) { return a + b + library_counter; }

int library_twice(int a) { return 2 * a; }
