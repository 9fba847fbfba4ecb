int exported(int x) { return x + 1; }
