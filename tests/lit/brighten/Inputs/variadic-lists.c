// Variadic library functions whose manual pages say what a call passes without a format
// (variadic-lists.test): syscall's six longs, execl's and execlp's null-terminated lists,
// execle's list and environment.
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

long same_pid(void) { return syscall(SYS_getpid) == getpid(); }

long write_twice(const char *text, long length) {
  return syscall(SYS_write, 1, text, length) + syscall(SYS_write, 1, text, length);
}

static int waited(pid_t child) {
  int status = 0;
  waitpid(child, &status, 0);
  return WEXITSTATUS(status);
}

int echo_words(const char *first, const char *second) {
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    execl("/bin/echo", "echo", first, second, (char *)0);
    _exit(127);
  }
  return waited(child);
}

int echo_by_path(const char *word) {
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    execlp("echo", "echo", "path:", word, (char *)0);
    _exit(127);
  }
  return waited(child);
}

int env_only(const char *setting) {
  char *const environment[] = {(char *)setting, 0};
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    execle("/usr/bin/env", "env", (char *)0, environment);
    _exit(127);
  }
  return waited(child);
}

// Eight pointers: the null that ends the list is passed on the stack.
int echo_many(const char *word) {
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    execl("/bin/echo", "echo", word, word, word, word, word, (char *)0);
    _exit(127);
  }
  return waited(child);
}

// prctl reads four longs after the option: PR_SET_NAME's name, then three the caller zeroes.
#include <sys/prctl.h>
int renamed(const char *name) {
  char back[16] = {0};
  if (prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL) != 0)
    return -1;
  prctl(PR_GET_NAME, (unsigned long)back, 0UL, 0UL, 0UL);
  return back[0] == name[0] && back[1] == name[1];
}

// mpz_inits and mpz_clears take pointers up to the first null one, as factor calls them.
#include <gmp.h>
long gmp_sum(long a, long b) {
  mpz_t x, y, z;
  mpz_inits(x, y, z, (mpz_ptr)0);
  mpz_set_si(x, a);
  mpz_set_si(y, b);
  mpz_add(z, x, y);
  long sum = mpz_get_si(z);
  mpz_clears(x, y, z, (mpz_ptr)0);
  return sum;
}
