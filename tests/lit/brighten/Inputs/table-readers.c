// Readers of a table of handlers whose index the code does not bound: the value read is a
// handler's address, handed out. `square` calls `pick`, which reads the slot holding `square`:
// brightening meets the reader before it knows whether the handler is brightened.
typedef int (*op_t)(int);

int twice(int x);
int thrice(int x);
int square(int x);
int counted(int x);
int apply_counting(int i, int x);

static op_t const ops[] = {twice, thrice, square};
op_t counting[] = {twice, counted};

__attribute__((noinline)) op_t pick(int i) { return ops[i]; }
__attribute__((noinline)) int twice(int x) { return 2 * x; }
__attribute__((noinline)) int thrice(int x) { return 3 * x; }
__attribute__((noinline)) int square(int x) { return x > 100 ? pick(x & 1)(x) : x * x; }

// A handler that is not brightened (its thread-local counter), which calls the reader of its
// table (in .data, out of `pick`'s reach) through the reader's caller: neither is brightened.
__thread int calls;
__attribute__((noinline)) int counted(int x) { return x > 100 ? apply_counting(0, x) : x + ++calls; }
__attribute__((noinline)) op_t pick_counting(int i) { return counting[i]; }
__attribute__((noinline)) int apply_counting(int i, int x) { return pick_counting(i)(x); }

#ifndef NO_MAIN
int main(void) { return pick(2)(5) + apply_counting(1, 3) + square(101) + pick(1)(1); }
#endif
