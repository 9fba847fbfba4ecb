/* Signal handlers of a translated program (docs/TRANSLATE.md, "Signal handlers"). The program's
 * signal, sigaction, bsd_signal, __sysv_signal and sigset are these functions (the runtime
 * fills their GOT slots with them, startup.c): a handler that is the program's code is
 * installed as `runGuestHandler`, which runs the lifted handler when the signal arrives, and
 * the program gets back the address it installed wherever the library would return the
 * trampoline. Flags, masks and everything else go to the kernel as the program gave them.
 *
 * The signal may interrupt lifted code anywhere, with live guest frames below the State.RSP
 * that lifted code keeps in a machine register: the handler runs on a State of its own and
 * puts its guest frames in an area of its own, one slice per nesting level. C allows a handler
 * only volatile sig_atomic_t variables and async-signal-safe calls; memory is shared, so
 * globals work. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "Runtime.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

extern __sighandler_t __sysv_signal(int, __sighandler_t);
extern __sighandler_t bsd_signal(int, __sighandler_t);

enum { SignalCount = 65 }; /* 1..64 on x86-64 Linux */

/* A handler's guest frames get this much of the area; handlers nest that many deep. */
static const uint64_t HandlerFrameSize = 1ull << 20;
static const uint64_t SignalStackSize = 16ull << 20;

/* For each signal the handler the program installed and its lifted code, both written before
 * the kernel is told to run the trampoline. */
static volatile uint64_t guestHandlers[SignalCount];
static const HoistFunction *volatile liftedHandlers[SignalCount];

/* Each thread's handlers have their own area: a signal arrives in whichever thread. */
_Thread_local uint64_t hoist_signal_stack_top;
static _Thread_local uint64_t signalStackBottom;
/* Threads installing handlers at once change the table one at a time. */
static pthread_mutex_t installing = PTHREAD_MUTEX_INITIALIZER;

static void allocateSignalStack(void);

static void runGuestHandler(int number, siginfo_t *info, void *context) {
  const HoistFunction *handler =
      number > 0 && number < SignalCount ? liftedHandlers[number] : 0;
  if (!handler)
    hoist_fatal("%s: signal %d arrived for a handler of the program the runtime did not install",
                hoist_program.path, number);
  hoist_enter_thread();   /* a thread that has not run lifted code yet */
  allocateSignalStack();
  /* A nested signal that arrives between these lines takes the same slice, and gives it back
   * before this one goes on. */
  uint64_t top = hoist_signal_stack_top;
  if (top - signalStackBottom < HandlerFrameSize)
    hoist_fatal("%s: signal handlers nested more than %lu deep", hoist_program.path,
                (unsigned long)(SignalStackSize / HandlerFrameSize));
  hoist_signal_stack_top = top - HandlerFrameSize;

  /* The ucontext's registers are the host's, not the program's: a handler that edits them to
   * resume elsewhere cannot be honored. */
  ucontext_t *interrupted = context;
  gregset_t registers;
  if (interrupted)
    memcpy(registers, interrupted->uc_mcontext.gregs, sizeof registers);

  HoistNativeFrame frame;
  memset(&frame, 0, sizeof frame);
  frame.gpr[0] = (uint64_t)number;
  frame.gpr[1] = (uint64_t)info;
  frame.gpr[2] = (uint64_t)context;
  hoist_run_lifted_below(handler, &frame, 0, top);

  if (interrupted && memcmp(registers, interrupted->uc_mcontext.gregs, sizeof registers) != 0)
    hoist_fatal("%s: the handler of signal %d at %#lx changed the interrupted registers in its "
                "ucontext, which a translated program does not support",
                hoist_program.path, number, (unsigned long)handler->address);
  hoist_signal_stack_top = top;
}

static uint64_t trampoline(void) { return (uint64_t)&runGuestHandler; }

static void allocateSignalStack(void) {
  if (signalStackBottom)
    return;
  void *area = mmap(0, SignalStackSize, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (area == MAP_FAILED)
    hoist_fatal("%s: cannot allocate the stack of signal handlers", hoist_program.path);
  signalStackBottom = (uint64_t)area;
  hoist_signal_stack_top = signalStackBottom + SignalStackSize;
}

void hoist_free_signal_stack(void) {
  if (signalStackBottom)
    munmap((void *)signalStackBottom, SignalStackSize);
  signalStackBottom = hoist_signal_stack_top = 0;
}

/* What the kernel gets for `handler`: the trampoline, once the table says what it runs, for
 * the program's code; anything else (SIG_DFL, SIG_IGN, SIG_HOLD, a library function) as is. */
static uint64_t install(int number, uint64_t handler) {
  if (number <= 0 || number >= SignalCount || !hoist_in_executable_segment(handler))
    return handler;
  const HoistFunction *lifted = hoist_lookup(handler);
  if (!lifted)
    hoist_fatal("%s: no lifted code for the handler of signal %d at %#lx", hoist_program.path,
                number, (unsigned long)handler);
  allocateSignalStack();
  guestHandlers[number] = handler;
  liftedHandlers[number] = lifted;
  return trampoline();
}

/* What the program sees of a handler the library returned: the trampoline stands for the
 * program's handler it ran before the change. */
static uint64_t programView(uint64_t host, uint64_t guestBefore) {
  return host == trampoline() ? guestBefore : host;
}

/* The table changes and the kernel's action must agree whenever a signal arrives. */
static void blockSignals(sigset_t *saved) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, saved);
  pthread_mutex_lock(&installing);
}

static void unblockSignals(const sigset_t *saved) {
  int error = errno;
  pthread_mutex_unlock(&installing);
  pthread_sigmask(SIG_SETMASK, saved, 0);
  errno = error;
}

static void forget(int number, uint64_t guestBefore, const HoistFunction *liftedBefore) {
  if (number > 0 && number < SignalCount) {
    guestHandlers[number] = guestBefore;
    liftedHandlers[number] = liftedBefore;
  }
}

int hoist_sigaction(int number, const struct sigaction *action, struct sigaction *old) {
  sigset_t saved;
  blockSignals(&saved);
  int known = number > 0 && number < SignalCount;
  uint64_t guestBefore = known ? guestHandlers[number] : 0;
  const HoistFunction *liftedBefore = known ? liftedHandlers[number] : 0;
  struct sigaction host;
  if (action) {
    host = *action;
    host.sa_sigaction =
        (void (*)(int, siginfo_t *, void *))install(number, (uint64_t)action->sa_sigaction);
  }
  int result = sigaction(number, action ? &host : 0, old);
  if (result != 0)
    forget(number, guestBefore, liftedBefore);
  else if (old)
    old->sa_sigaction = (void (*)(int, siginfo_t *, void *))programView(
        (uint64_t)old->sa_sigaction, guestBefore);
  unblockSignals(&saved);
  return result;
}

typedef __sighandler_t (*SignalFunction)(int, __sighandler_t);

/* signal, bsd_signal and __sysv_signal: the library's own function, which chooses the flags,
 * with the handler replaced. */
static __sighandler_t replaceHandler(SignalFunction library, int number, __sighandler_t handler) {
  sigset_t saved;
  blockSignals(&saved);
  int known = number > 0 && number < SignalCount;
  uint64_t guestBefore = known ? guestHandlers[number] : 0;
  const HoistFunction *liftedBefore = known ? liftedHandlers[number] : 0;
  __sighandler_t previous = library(number, (__sighandler_t)install(number, (uint64_t)handler));
  if (previous == SIG_ERR)
    forget(number, guestBefore, liftedBefore);
  else
    previous = (__sighandler_t)programView((uint64_t)previous, guestBefore);
  unblockSignals(&saved);
  return previous;
}

__sighandler_t hoist_signal(int number, __sighandler_t handler) {
  return replaceHandler(signal, number, handler);
}

__sighandler_t hoist_bsd_signal(int number, __sighandler_t handler) {
  return replaceHandler(bsd_signal, number, handler);
}

__sighandler_t hoist_sysv_signal(int number, __sighandler_t handler) {
  return replaceHandler(__sysv_signal, number, handler);
}

/* sigset changes the signal mask and reports SIG_HOLD from it, so it runs with the program's
 * mask: a signal that arrives between the table's change and the kernel's finds the new
 * handler (or, if sigset fails, the one the table held before). */
__sighandler_t hoist_sigset(int number, __sighandler_t handler) {
  int known = number > 0 && number < SignalCount;
  uint64_t guestBefore = known ? guestHandlers[number] : 0;
  const HoistFunction *liftedBefore = known ? liftedHandlers[number] : 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* the program calls it */
  __sighandler_t previous = sigset(number, (__sighandler_t)install(number, (uint64_t)handler));
#pragma GCC diagnostic pop
  if (previous == SIG_ERR)
    forget(number, guestBefore, liftedBefore);
  return previous == SIG_ERR ? previous
                             : (__sighandler_t)programView((uint64_t)previous, guestBefore);
}

int hoist_guest_handles(int number) {
  struct sigaction action;
  sigset_t blocked;
  return sigaction(number, 0, &action) == 0 && (uint64_t)action.sa_sigaction == trampoline() &&
         sigprocmask(SIG_BLOCK, 0, &blocked) == 0 && !sigismember(&blocked, number);
}

uint64_t hoist_signal_replacement(const char *symbol) {
  static const struct {
    const char *name;
    void (*function)(void);
  } replacements[] = {
      {"signal", (void (*)(void))hoist_signal},
      {"bsd_signal", (void (*)(void))hoist_bsd_signal},
      {"__sysv_signal", (void (*)(void))hoist_sysv_signal},
      {"sysv_signal", (void (*)(void))hoist_sysv_signal},
      {"sigset", (void (*)(void))hoist_sigset},
      {"sigaction", (void (*)(void))hoist_sigaction},
      {"__sigaction", (void (*)(void))hoist_sigaction},
  };
  for (unsigned i = 0; symbol && i < sizeof replacements / sizeof replacements[0]; ++i)
    if (strcmp(symbol, replacements[i].name) == 0)
      return (uint64_t)replacements[i].function;
  return 0;
}
