/* setjmp called through a pointer: natively main's frame takes it; a translation cannot
 * (lib/Translate/NonlocalJumps.h) and ends with a message naming the function. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf where;

int main(void) {
  int (*volatile take)(struct __jmp_buf_tag *) = _setjmp;
  puts("before");
  fflush(stdout);
  if (take(where) == 0)
    longjmp(where, 1);
  puts("after");
  return 0;
}
