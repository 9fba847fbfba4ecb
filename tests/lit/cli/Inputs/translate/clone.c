/* A child made by clone itself, on a stack the program gives it. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

static char stack[65536];
static int child(void *argument) { return (int)(long)argument; }

int main(void) {
  int pid = clone(child, stack + sizeof stack, SIGCHLD, (void *)3);
  int status = 0;
  waitpid(pid, &status, 0);
  printf("%d\n", WEXITSTATUS(status));
  return 0;
}
