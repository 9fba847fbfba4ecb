/* A SA_SIGINFO handler that edits the interrupted registers in its ucontext: natively raise
 * returns what the handler put in rax; in a translation those are the host's registers, and
 * the runtime ends the program naming the signal and the handler. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static void edit(int number, siginfo_t *info, void *context) {
  (void)number, (void)info;
  ((ucontext_t *)context)->uc_mcontext.gregs[REG_RAX] = 42;
}

int main(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = edit;
  action.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &action, 0);
  puts("before");
  fflush(stdout);
  raise(SIGUSR1);
  puts("after");
  return 0;
}
