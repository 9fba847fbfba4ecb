/* A shared library's exported functions calling each other: built with -fPIC, each call goes
   through the library's own PLT, so that another library could interpose the callee. */
long triangle(long n) { return n <= 0 ? 0 : n + triangle(n - 1); }

long twice_triangle(long n) { return 2 * triangle(n); }
