#include <signal.h>
#include <stdio.h>
int twice(int x);
void set_hook(int which);
int call_hook(int x);
int hook_is_twice(void);
int (*choose(int which))(int);
int apply_twice(int x);
int raise_handled(void);
int raise_handled_from_data(void);

int main(void) {
  set_hook(1);
  printf("hook %d %d\n", call_hook(21), hook_is_twice());
  set_hook(0);
  printf("hook %d %d\n", call_hook(21), hook_is_twice());
  printf("choose %d %d\n", choose(1)(5), choose(0)(5));
  printf("same %d\n", choose(1) == choose(1));
  printf("apply %d\n", apply_twice(20));
  printf("signal %d\n", raise_handled() == SIGUSR1);
  printf("data %d\n", raise_handled_from_data() == SIGUSR2 + 100);
  return 0;
}
