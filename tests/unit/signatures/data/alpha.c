// Equal bytes under two names (beta.c): a collision, which must not be named either way.
int alpha(int x, int y) { return (x * 7 + y) ^ (x >> 3) ^ (y << 5); }
