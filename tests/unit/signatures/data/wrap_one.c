// wrap_one and wrap_two differ only in what they call: the callee decides between them.
int helper_one(int);
int wrap_one(int x) { return helper_one(x * 3 + 1) * 5 + 11; }
