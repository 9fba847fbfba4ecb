/* Code addresses the program hands on: stored into a hook, returned, passed to a function of
   its own, compared, put into a struct a library reads (sigaction), and held in data a
   library reads. */
#include <signal.h>
#include <string.h>

#define KEEP __attribute__((noinline, used))

KEEP int twice(int x) { return 2 * x; }
KEEP int negate(int x) { return -x; }

int (*hook)(int);

KEEP void set_hook(int which) { hook = which ? twice : negate; }
KEEP int call_hook(int x) { return hook(x); }
KEEP int hook_is_twice(void) { return hook == twice; }
KEEP int (*choose(int which))(int) { return which ? twice : negate; }
KEEP int apply_own(int (*function)(int), int x) { return function(x) + 1; }
KEEP int apply_twice(int x) { return apply_own(twice, x); }

volatile sig_atomic_t signalled;
KEEP void on_signal(int number) { signalled = number; }
KEEP int raise_handled(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigaction(SIGUSR1, &action, 0);
  raise(SIGUSR1);
  return signalled;
}

/* The handler's address is in the image's data: the loader writes it there. */
KEEP void on_other_signal(int number) { signalled = number + 100; }
static const struct sigaction other_action = {.sa_handler = on_other_signal};
KEEP int raise_handled_from_data(void) {
  sigaction(SIGUSR2, &other_action, 0);
  raise(SIGUSR2);
  return signalled;
}
