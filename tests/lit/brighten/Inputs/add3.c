int add3(int a, int b, int c) { return a + b + c; }
long load_store(long *p, long v) { long old = *p; *p = v; return old; }
int is_zero(int x) { return x == 0; }
void nothing(void) {}
double mix(double x, float y, int n) { return x * y + n; }
long uses_global(void);
long counter;
long uses_global(void) { return ++counter; }
long *counter_pointer(void) { return &counter; }
void *code_address(void) { return (void *)uses_global; }
int main(void) { return 0; }
