#include "Check/TrialGuard.h"

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <ctime>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace hoist::check {
namespace {

constexpr int FaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
// The timer's signal goes to the trial's thread alone (SIGEV_THREAD_ID), so another thread of
// Hoist never receives it.
constexpr int TimerSignal = SIGALRM;

thread_local sigjmp_buf *activeJump = nullptr;
// No allocation in a signal handler: the outcome waits as a kind and a static string.
thread_local TrialEnd pendingEnd = TrialEnd::Returned;
thread_local const char *pendingDetail = "";
thread_local int pendingSignal = 0;
thread_local uint64_t pendingFaultAddress = 0;

[[noreturn]] void leave(TrialEnd end, const char *detail) {
  sigjmp_buf *jump = activeJump;
  activeJump = nullptr;
  pendingEnd = end;
  pendingDetail = detail;
  siglongjmp(*jump, 1);
}

void onSignal(int signal, siginfo_t *info, void *context) {
  if (!activeJump && signal == TimerSignal)
    return; // the limit passed just as the run returned
  if (!activeJump) {
    // Not inside a trial: Hoist's own fault, which must end the process as it would have;
    // said first, since it may be code a trial left behind.
    char text[96];
    int length = snprintf(
        text, sizeof text, "hoist: signal %d at %p outside a check trial\n", signal,
        reinterpret_cast<void *>(static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RIP]));
    (void)!write(STDERR_FILENO, text, size_t(length));
    (void)info;
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  if (signal == TimerSignal)
    leave(TrialEnd::TimedOut, "ran past the time limit");
  pendingSignal = signal;   // named once the trial has left the handler
  pendingFaultAddress = reinterpret_cast<uint64_t>(info->si_addr);
  leave(TrialEnd::Faulted, "a signal");
}

struct SavedHandlers {
  struct sigaction actions[6];
  stack_t stack;
  timer_t timer;
  bool timerMade = false;
};
thread_local SavedHandlers saved;
// Static storage: the alternate stack outlives every trial (signals may be pending).
alignas(16) thread_local char alternateStack[64 * 1024];

} // namespace

TrialGuard::TrialGuard(unsigned millisecondsPerRun) : milliseconds_(millisecondsPerRun) {
  stack_t alternate{};
  alternate.ss_sp = alternateStack;
  alternate.ss_size = sizeof alternateStack;
  sigaltstack(&alternate, &saved.stack);
  struct sigaction action {};
  action.sa_sigaction = onSignal;
  // SA_NODEFER: leaving by siglongjmp without restoring a mask keeps the signal deliverable.
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  unsigned index = 0;
  for (int signal : FaultSignals)
    sigaction(signal, &action, &saved.actions[index++]);
  sigaction(TimerSignal, &action, &saved.actions[index]);
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = TimerSignal;
  event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  saved.timerMade = timer_create(CLOCK_MONOTONIC, &event, &saved.timer) == 0;
}

TrialGuard::~TrialGuard() {
  if (saved.timerMade)
    timer_delete(saved.timer);
  unsigned index = 0;
  for (int signal : FaultSignals)
    sigaction(signal, &saved.actions[index++], nullptr);
  sigaction(TimerSignal, &saved.actions[index], nullptr);
  sigaltstack(&saved.stack, nullptr);
}

TrialOutcome TrialGuard::run(void (*body)(void *), void *argument) {
  sigjmp_buf jump;
  itimerspec disarmed{};
  if (sigsetjmp(jump, 0)) {
    if (saved.timerMade)
      timer_settime(saved.timer, 0, &disarmed, nullptr);
    if (pendingSignal) {
      const char *name = sigabbrev_np(pendingSignal);
      std::string signal = name ? std::string("SIG") + name : "a signal";
      TrialOutcome outcome{pendingEnd, signal, std::nullopt};
      if (pendingSignal == SIGSEGV || pendingSignal == SIGBUS)
        outcome.faultAddress = pendingFaultAddress;
      pendingSignal = 0;
      return outcome;
    }
    return {pendingEnd, pendingDetail};
  }
  if (saved.timerMade) {
    itimerspec limit{};
    limit.it_value.tv_sec = milliseconds_ / 1000;
    limit.it_value.tv_nsec = long(milliseconds_ % 1000) * 1000000;
    timer_settime(saved.timer, 0, &limit, nullptr);
  }
  activeJump = &jump;
  body(argument);
  activeJump = nullptr;
  if (saved.timerMade)
    timer_settime(saved.timer, 0, &disarmed, nullptr);
  return {TrialEnd::Returned, ""};
}

void abandonTrial(TrialEnd end, const char *detail) {
  if (!activeJump)
    std::abort(); // a stub called outside a trial: a bug of the check
  leave(end, detail);
}

} // namespace hoist::check
