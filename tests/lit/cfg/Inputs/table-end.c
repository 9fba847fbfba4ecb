// Switches whose range check the compiler left out (the default cannot happen) over a value a
// callee writes through a pointer (gnulib's regex parser: `switch (token->type)` after
// peek_token): nothing on the path bounds the index. Two such switches in one function put
// their tables next to each other: the first must end where the second begins.
struct token { int type; int value; };

__attribute__((noinline)) void next_token(struct token *t, int c) {
  t->type = (c & 0x7fffffff) % 7;
  t->value = c;
}

int classify_token(int c) {
  struct token t = {3, 0};
  next_token(&t, c);
  switch (t.type) {
  case 0: return t.value * 3 + 1;
  case 1: return t.value - 17;
  case 2: return t.value ^ 0x55;
  case 3: return t.value << 2;
  case 4: return -t.value;
  case 5: return t.value / 3 + 9;
  case 6: return t.value & 0x3c;
  default: __builtin_unreachable();
  }
}

int two_tokens(int c, int d) {
  struct token t = {0, 0}, u = {0, 0};
  int sum = 0;
  next_token(&t, c);
  switch (t.type) {
  case 0: sum = t.value + 11; break;
  case 1: sum = t.value * 5; break;
  case 2: sum = t.value - 3; break;
  case 3: sum = t.value | 0x100; break;
  case 4: sum = 77; break;
  case 5: sum = t.value >> 1; break;
  case 6: sum = ~t.value; break;
  default: __builtin_unreachable();
  }
  next_token(&u, d);
  switch (u.type) {
  case 0: return sum + u.value;
  case 1: return sum - u.value * 2;
  case 2: return sum ^ u.value;
  case 3: return sum * 7;
  case 4: return sum + 1000;
  case 5: return sum - 12345;
  case 6: return sum & u.value;
  default: __builtin_unreachable();
  }
}
