int helper_two(int);
int wrap_two(int x) { return helper_two(x * 3 + 1) * 5 + 11; }
