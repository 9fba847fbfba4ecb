#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

jmp_buf resume_point;

__attribute__((noinline)) void bail_out(int code) { longjmp(resume_point, code); }

/* `progress` is volatile, as C asks of a local changed between setjmp and longjmp: the machine
   code keeps it in the frame and reads it there after the second return. */
__attribute__((noinline)) int count_until_bail(int limit) {
  volatile int progress = 0;
  int code = setjmp(resume_point);
  if (code != 0)
    return progress * 100 + code;
  for (int i = 0; i < limit; ++i)
    progress = progress + 1;
  bail_out(7);
  return -1;
}
