// An int constant that equals an address the same function takes (tests/lit/brighten/
// number-like-address.test builds this twice: VALUE is message's address the second time).
#ifndef VALUE
#define VALUE 0x1234
#endif
const char message[] = "a string in .rodata";
int number;

__attribute__((noinline)) const char *store_number(void) {
  number = VALUE;
  return message;
}

int main(void) { return store_number()[0] == 'a' && number == VALUE ? 0 : 1; }
