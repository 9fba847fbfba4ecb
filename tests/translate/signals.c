/* Signal handlers and non-local jumps in a translated program (run-signals.sh): every line
 * printed depends on a handler running, a handler address coming back, or a longjmp landing
 * with the registers of its setjmp; the original and the translation must print the same,
 * and both end killed by SIGTERM. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t caught[NSIG];
static volatile sig_atomic_t infoSignal, infoCode, order;

static void count(int number) { caught[number]++; }
static void other(int number) { caught[number] += 100; }

static void withInfo(int number, siginfo_t *info, void *context) {
  (void)context;
  caught[number]++;
  infoSignal = info->si_signo;
  infoCode = info->si_code;
}

/* A handler that raises another signal: both run, the inner one first. */
static void outer(int number) {
  order = order * 10 + 1;
  raise(SIGUSR2);
  order = order * 10 + 3;
  caught[number]++;
}
static void inner(int number) {
  order = order * 10 + 2;
  caught[number]++;
}

static void delivery(void) {
  signal(SIGINT, count);
  raise(SIGINT);
  raise(SIGINT);
  printf("SIGINT by raise: %d\n", caught[SIGINT]);

  signal(SIGTERM, count);
  kill(getpid(), SIGTERM);
  printf("SIGTERM by kill: %d\n", caught[SIGTERM]);

  int fds[2];
  if (pipe(fds) != 0)
    return;
  signal(SIGPIPE, count);
  close(fds[0]);
  ssize_t written = write(fds[1], "x", 1);
  printf("SIGPIPE: %d, write %zd, EPIPE %d\n", caught[SIGPIPE], written, errno == EPIPE);
  close(fds[1]);

  /* The timer's signal waits blocked until sigsuspend opens the mask: no lost wakeup. */
  sigset_t alarmOnly, unblocked;
  sigemptyset(&alarmOnly);
  sigaddset(&alarmOnly, SIGALRM);
  sigprocmask(SIG_BLOCK, &alarmOnly, &unblocked);
  signal(SIGALRM, count);
  struct itimerval soon = {{0, 0}, {0, 1000}};
  setitimer(ITIMER_REAL, &soon, 0);
  while (!caught[SIGALRM])
    sigsuspend(&unblocked);
  sigprocmask(SIG_SETMASK, &unblocked, 0);
  printf("SIGALRM: %d\n", caught[SIGALRM]);

  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = withInfo;
  action.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &action, 0);
  raise(SIGUSR1);
  printf("SA_SIGINFO: %d, si_signo %d, si_code %d\n", caught[SIGUSR1], infoSignal, infoCode);
  kill(getpid(), SIGUSR1);
  printf("SA_SIGINFO by kill: si_code %d\n", infoCode);

  signal(SIGUSR1, outer);
  signal(SIGUSR2, inner);
  raise(SIGUSR1);
  printf("nested: order %d\n", order);
  fprintf(stderr, "deliveries done\n");
}

static void roundTrip(void) {
  void (*old)(int) = signal(SIGHUP, count);
  printf("first old is SIG_DFL: %d\n", old == SIG_DFL);
  old = signal(SIGHUP, SIG_IGN);
  printf("old is count: %d\n", old == count);
  old = signal(SIGHUP, other);
  printf("old is SIG_IGN: %d\n", old == SIG_IGN);

  struct sigaction saved, replacement;
  sigaction(SIGHUP, 0, &saved);
  printf("queried is other: %d, flags %#x\n", saved.sa_handler == other,
         (unsigned)saved.sa_flags & (SA_RESTART | SA_SIGINFO | SA_RESETHAND | SA_NODEFER));
  memset(&replacement, 0, sizeof replacement);
  replacement.sa_handler = count;
  struct sigaction previous;
  sigaction(SIGHUP, &replacement, &previous);
  printf("previous is other: %d\n", previous.sa_handler == other);
  sigaction(SIGHUP, &saved, 0);
  raise(SIGHUP);
  printf("restored other ran: %d\n", caught[SIGHUP]);

  memset(&replacement, 0, sizeof replacement);
  replacement.sa_handler = count;
  replacement.sa_flags = SA_RESETHAND;
  sigaction(SIGWINCH, &replacement, 0);
  raise(SIGWINCH);
  sigaction(SIGWINCH, 0, &previous);
  printf("SA_RESETHAND: ran %d, now SIG_DFL %d\n", caught[SIGWINCH], previous.sa_handler == SIG_DFL);

  sigset_t block, pending;
  sigemptyset(&block);
  sigaddset(&block, SIGCHLD);
  signal(SIGCHLD, count);
  sigprocmask(SIG_BLOCK, &block, 0);
  raise(SIGCHLD);
  sigpending(&pending);
  printf("blocked: ran %d, pending %d\n", caught[SIGCHLD], sigismember(&pending, SIGCHLD));
  sigprocmask(SIG_UNBLOCK, &block, 0);
  printf("unblocked: ran %d\n", caught[SIGCHLD]);

  /* Accepted: the kernel runs the trampoline on it; the handler's guest frames go elsewhere. */
  static char alternate[1 << 16];
  stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate, .ss_flags = 0};
  sigaltstack(&stack, 0);
  memset(&replacement, 0, sizeof replacement);
  replacement.sa_handler = count;
  replacement.sa_flags = SA_ONSTACK;
  sigaction(SIGURG, &replacement, 0);
  raise(SIGURG);
  printf("SA_ONSTACK: %d\n", caught[SIGURG]);
}

static jmp_buf recovery;

__attribute__((noinline)) static int deep(int depth, int fail) {
  if (depth == 0) {
    if (fail)
      longjmp(recovery, fail);
    return 1;
  }
  return deep(depth - 1, fail) * 2 + depth;
}

/* `keep` stays in a callee-saved register in optimized builds, and deep() uses those too. */
__attribute__((noinline)) static int attempt(int fail) {
  int keep = fail * 100 + 5;
  volatile int attempts = 0;
  int result = setjmp(recovery);
  attempts++;
  if (result != 0) {
    printf("recovered %d, keep %d, attempts %d\n", result, keep, attempts);
    return -result;
  }
  return deep(6, fail) + keep;
}

static int compareOrJump(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  if (x == 13 || y == 13)
    longjmp(recovery, 13);
  return (x > y) - (x < y);
}

static sigjmp_buf escape;
static void jumpOut(int number) { siglongjmp(escape, number); }

__attribute__((noinline)) static void raiseDeep(int depth, int number) {
  if (depth == 0)
    raise(number);
  else
    raiseDeep(depth - 1, number);
  caught[number] += 1000; /* not reached: the handler jumps out */
}

static int blockedNow(int number) {
  sigset_t now;
  sigprocmask(SIG_BLOCK, 0, &now);
  return sigismember(&now, number);
}

static void nonlocalJumps(void) {
  printf("attempt(0) = %d\n", attempt(0));
  printf("attempt(3) = %d\n", attempt(3));
  if (setjmp(recovery) == 0) {
    longjmp(recovery, 0);
  } else {
    puts("longjmp with 0 returns 1");
  }

  int values[] = {5, 3, 13, 8, 1};
  int result = setjmp(recovery);
  if (result == 0) {
    qsort(values, 5, sizeof values[0], compareOrJump);
    puts("sorted");
  } else {
    printf("out of qsort: %d\n", result);
  }

  /* More escapes than handlers may nest: each must give its frames back. */
  signal(SIGUSR1, jumpOut);
  int escapes = 0;
  for (int i = 0; i < 40; ++i)
    if (sigsetjmp(escape, 1) == 0)
      raiseDeep(3, SIGUSR1);
    else
      escapes++;
  printf("escaped from the handler %d times, SIGUSR1 blocked after %d\n", escapes,
         blockedNow(SIGUSR1));

  /* Without the saved mask the handler's mask stays, as natively. */
  static jmp_buf plain;
  if (_setjmp(plain) == 0) {
    signal(SIGUSR2, jumpOut);
    memcpy(escape, plain, sizeof plain);
    raise(SIGUSR2);
  } else {
    printf("escaped without the mask, SIGUSR2 blocked after %d\n", blockedNow(SIGUSR2));
  }
}

int main(void) {
  delivery();
  roundTrip();
  nonlocalJumps();
  fflush(stdout);
  fprintf(stderr, "ending by SIGTERM\n");
  signal(SIGTERM, SIG_DFL);
  raise(SIGTERM);
  return 0;
}
