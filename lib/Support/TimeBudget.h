// The time budget of one run (`--timeout SECONDS`). The loops that input drives (discovery
// rounds, function exploration, lifting one function after another) check
// LiftOptions::deadline and stop with a diagnostic, keeping the partial result. Phases that do
// not check it (LLVM's optimizer and printer, or a loop nobody thought of) are covered by a
// watchdog that ends the process, so that no input keeps Hoist busy without end.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace hoist {

class DiagnosticSink;

/// The exit code of a run the watchdog ended.
constexpr int WatchdogExitCode = 3;

/// The deadline `seconds` from now.
std::chrono::steady_clock::time_point deadlineAfter(double seconds);

/// When the watchdog of a `--timeout` of `seconds` fires: twice the timeout plus 10 s, time
/// enough to write the partial result after the deadline.
std::chrono::milliseconds watchdogDelay(double seconds);

/// Reports that the time budget ran out: `stopped` says what stopped and what is kept
/// ("program discovery stopped after 12 functions").
void reportTimeBudgetExhausted(DiagnosticSink &diagnostics, const std::string &stopped);

/// Ends the process with WatchdogExitCode and a message on stderr if it is still alive `delay`
/// after construction; destroying the watchdog earlier disarms it.
class Watchdog {
public:
  explicit Watchdog(std::chrono::milliseconds delay);
  ~Watchdog();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

private:
  std::mutex mutex_;
  std::condition_variable disarmed_;
  bool done_ = false;
  std::thread thread_;
};

} // namespace hoist
