int beta(int x, int y) { return (x * 7 + y) ^ (x >> 3) ^ (y << 5); }
