/* Jump-table shapes that compilers other than the corpus's first two emit, or that real
   programs hold (issue 27): a byte index with no range check and a `default` the compiler knew
   unreachable (gawk's `switch (node->type)`), a field compared in memory, a switch in a loop, a
   state machine whose constants pass the range check or not, gnulib's xstrtol suffix switch
   whose character lives in a stack slot across calls. */
#include <stdlib.h>
#include <string.h>

struct rec { int pad[13]; unsigned kind; unsigned char tag; };

__attribute__((noinline)) int by_field(struct rec *r) {
  switch (r->kind) {
  case 0: return r->pad[0] + 1; case 1: return r->pad[1] * 3; case 2: return r->pad[2] - 7;
  case 3: return r->pad[3] ^ 5; case 4: return r->pad[4] + 19; case 5: return r->pad[5] * 11;
  case 6: return r->pad[6] - 2; case 7: return r->pad[7] | 9;
  }
  return 0;
}

__attribute__((noinline)) long loop_switch(const char *s, long n) {
  long acc = 0;
  for (long i = 0; i < n; i++) {
    switch (s[i] & 7) {
    case 0: acc += 3; break; case 1: acc *= 5; break; case 2: acc -= 7; break;
    case 3: acc ^= 11; break; case 4: acc += i; break; case 5: acc = acc * 3 + 1; break;
    case 6: acc >>= 1; break; case 7: acc |= 64; break;
    }
  }
  return acc;
}

__attribute__((noinline)) int machine(const char *s) {
  int state = 0, out = 0;
  for (;;) {
    switch (state) {
    case 0: out += 1; state = *s++ ? 2 : 9; break;
    case 1: out *= 3; state = 4; break;
    case 2: out ^= 5; state = 3; break;
    case 3: out -= 2; state = *s ? 1 : 7; break;
    case 4: out += 7; state = 0; break;
    default: return out + state;
    }
  }
}

/* Every way into the loop head sets the state to a constant, some of them past the range check
   (`cmp $4, state; ja`): the table has 5 entries, not one per constant. */
__attribute__((noinline)) int machine2(int n) {
  int state = 0, out = 0;
  for (;;) {
    switch (state) {
    case 0: out += 1; state = 2; break;
    case 1: out *= 3; state = 4; break;
    case 2: out ^= 5; state = 3; break;
    case 3: out -= 2; if (out > n) state = 7; else state = 1; break;
    case 4: out += 7; state = 0; if (out > 1000) state = 9; break;
    default: return out + state;
    }
  }
}

extern int scale_it(unsigned long *x, int by, int power);
__attribute__((noinline)) int scale_it(unsigned long *x, int by, int power) {
  while (power--) *x *= by;
  return 0;
}

/* gnulib's xstrtol suffix switch: the suffix is checked against a set, then the value is
   multiplied in a switch after calls, so the character lives in a stack slot. */
__attribute__((noinline)) int xsuffix(const char *p, unsigned long *val, const char *valid) {
  if (!*p) return 0;
  if (!strchr(valid, *p)) return 4;
  int base = 1024;
  if (strchr(valid, '0')) {
    switch (p[1]) { case 'i': if (p[2] == 'B') base = 1024; break; case 'B': case 'D': base = 1000; break; }
  }
  int err = 0;
  switch (*p) {
  case 'b': err = scale_it(val, 512, 1); break;
  case 'B': err = scale_it(val, 1024, 1); break;
  case 'c': break;
  case 'E': err = scale_it(val, base, 6); break;
  case 'G': case 'g': err = scale_it(val, base, 3); break;
  case 'k': case 'K': err = scale_it(val, base, 1); break;
  case 'M': case 'm': err = scale_it(val, base, 2); break;
  case 'P': err = scale_it(val, base, 5); break;
  case 'T': case 't': err = scale_it(val, base, 4); break;
  case 'w': err = scale_it(val, 2, 1); break;
  case 'Y': err = scale_it(val, base, 8); break;
  case 'Z': err = scale_it(val, base, 7); break;
  default: return 4;
  }
  return err;
}

struct node { int a, b; unsigned char op; };
__attribute__((noinline)) long eval_ops(struct node *n, long count) {
  long acc = 0;
  for (long i = 0; i < count; i++) {
    switch (n[i].op) {
    case 0: acc += n[i].a; break; case 1: acc -= n[i].b; break; case 2: acc *= n[i].a; break;
    case 3: acc ^= n[i].b; break; case 4: acc += n[i].a * n[i].b; break; case 5: acc >>= 1; break;
    case 6: acc |= n[i].a; break; case 7: acc &= n[i].b; break;
    default: __builtin_unreachable();
    }
  }
  return acc;
}

int main(int argc, char **argv) {
  unsigned long v = 3;
  struct rec r = {{0}};
  struct node n[2] = {{1, 2, (unsigned char)argc}, {3, 4, 1}};
  r.kind = (unsigned)argc;
  return by_field(&r) + (int)loop_switch(argv[0], (long)strlen(argv[0])) + machine(argv[0]) +
         machine2(argc * 100) + xsuffix(argc > 1 ? argv[1] : "k", &v, "bBcEGgkKMmPTtwYZ0") +
         (int)v + (int)eval_ops(n, 2);
}
