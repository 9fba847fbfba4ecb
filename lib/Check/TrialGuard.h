// Runs one trial of the differential check (BrightenCheck.h) so that nothing it does ends
// Hoist: a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP) or a time limit leaves the trial
// through siglongjmp with an outcome, and code the check cannot judge (a system call, an
// unresolved call) leaves it the same way through abandonTrial.
#pragma once

#include <optional>
#include <string>

namespace hoist::check {

enum class TrialEnd {
  Returned,  ///< the function returned
  Exited,    ///< it called an import that does not return (exit, abort): compared so far
  Faulted,   ///< a signal, a lifted trap or an unresolved jump: as the machine would fault
  TimedOut,  ///< ran past the time limit: no verdict
  Abandoned, ///< did something the check cannot reproduce: no verdict
};

struct TrialOutcome {
  TrialEnd end = TrialEnd::Returned;
  std::string detail; ///< the signal's name, or why the trial was abandoned
  /// For SIGSEGV and SIGBUS, the host address the run could not reach.
  std::optional<uint64_t> faultAddress;
};

/// Installs the handlers, the alternate signal stack and the timer for the calling thread while
/// it lives, and restores what was there before. One at a time, on the thread that runs trials.
class TrialGuard {
public:
  explicit TrialGuard(unsigned millisecondsPerRun);
  ~TrialGuard();
  TrialGuard(const TrialGuard &) = delete;
  TrialGuard &operator=(const TrialGuard &) = delete;

  /// Calls `body(argument)` under the guard.
  TrialOutcome run(void (*body)(void *), void *argument);

private:
  unsigned milliseconds_;
};

/// Leaves the running trial with `end` (Faulted or Abandoned) and `detail`. Called from the
/// stubs the check gives lifted and brightened code (CheckStubs.h); never returns.
[[noreturn]] void abandonTrial(TrialEnd end, const char *detail);

} // namespace hoist::check
