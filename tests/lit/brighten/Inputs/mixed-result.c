// Results in RAX and XMM0 (mixed-result.test): SysV returns a struct of an integer and a
// double, either order, in RAX and XMM0; callers read both. `loaded` copies one from memory
// (no arithmetic on either half); `passed` hands its arguments back unchanged in both registers.
// gcc's noipa; clang keeps a function's interface when it is external and not inlined.
#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noipa))
#endif

struct counted { long count; double sum; };
struct scaled { double factor; long shift; };

KEEP struct counted total(const double *values, long n) {
  struct counted c = {0, 0};
  for (long i = 0; i < n; ++i)
    if (values[i] > 0) {
      c.count++;
      c.sum += values[i];
    }
  return c;
}

KEEP struct scaled halve(long x) { return (struct scaled){x * 0.5, x >> 1}; }

KEEP struct counted loaded(const struct counted *p) { return *p; }

KEEP struct counted passed(long count, double sum) {
  return (struct counted){count, sum};
}

KEEP double mean(const double *values, long n) {
  struct counted c = total(values, n);
  return c.count ? c.sum / c.count : 0;
}

KEEP long mix(long x) {
  struct scaled s = halve(x);
  struct counted c = {x, 2.5};
  struct counted l = loaded(&c);
  struct counted p = passed(x + 1, 0.25);
  return (long)(s.factor * 4) + s.shift + l.count + (long)(l.sum * 2) + p.count +
         (long)(p.sum * 8);
}

// XMM0 alone holding integer data moved through it: a vector loaded (`load16`, read by
// `width`) is a result; 16 bytes copied through it (`copy16`) are not.
typedef long long v2di __attribute__((vector_size(16)));

KEEP v2di load16(const char *from) {
  v2di v;
  __builtin_memcpy(&v, from, 16);
  return v;
}

KEEP void copy16(char *to, const char *from) { __builtin_memcpy(to, from, 16); }

KEEP long width(char *to, const char *from) {
  copy16(to, from);
  v2di v = load16(from);
  __builtin_memcpy(to, &v, 8);
  return to[3];
}

// RAX and XMM0 both computed from floating-point values, neither from the other: the callers
// decide, and `scaled_sum` reads XMM0 alone.
KEEP double both(double x, double y, int *out) {
  *out = (int)(y * 3);
  return x * 2;
}

KEEP double scaled_sum(double x, double y) {
  int part;
  double twice = both(x, y, &part);
  return twice + part;
}

// Called through a table only (as mawk calls its builtins): it returns the pointer in RAX and
// leaves the double it stored in XMM0, and no direct call tells which one callers read.
struct cell { short type; double value; };
KEEP struct cell *through_table(struct cell *sp) {
  sp->value = sp->value * 0.5 + 1;
  return sp;
}
struct cell *(*volatile const cell_functions[])(struct cell *) = {through_table};

KEEP long via_table(long x) {
  struct cell c = {1, 2.0 * x};
  return (long)cell_functions[0](&c)->value;
}

int main(int argc, char **argv) {
  (void)argv;
  long through = via_table(argc);
  double values[] = {1.5, -2, 3, argc};
  char bytes[16] = "fifteen bytes..", copied[16];
  return (int)(mean(values, 4) + mix(argc) + width(copied, bytes) + scaled_sum(argc, 1)) +
         copied[9] - 'y' - 't' - 5 + (int)through - 2;
}
