long twice(long x) { return 2 * x; }
long thrice(long x) { return 3 * x; }
