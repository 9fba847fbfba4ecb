int helper_one(int x) { return (x * 13) ^ 0x5a5a + (x >> 2); }
int helper_two(int x) { return (x * 17) ^ 0x3c3c - (x << 1); }
