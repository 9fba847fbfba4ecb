#include "Support/TimeBudget.h"

#include "Support/Diagnostics.h"

#include <cstdio>
#include <unistd.h>

namespace hoist {

std::chrono::steady_clock::time_point deadlineAfter(double seconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
}

std::chrono::milliseconds watchdogDelay(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 2000) + 10000);
}

void reportTimeBudgetExhausted(DiagnosticSink &diagnostics, const std::string &stopped) {
  diagnostics.warning("budget-exhausted", std::nullopt,
                      "time budget (--timeout) exhausted: " + stopped + "; the result is partial");
}

Watchdog::Watchdog(std::chrono::milliseconds delay) {
  thread_ = std::thread([this, delay] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (disarmed_.wait_for(lock, delay, [this] { return done_; }))
      return;
    // Other threads may hold locks (the heap's, LLVM's): write and leave without unwinding,
    // running destructors or flushing streams that could block.
    char message[160];
    int length = std::snprintf(message, sizeof message,
                               "hoist: error: still running %.1f s after the start; the "
                               "watchdog of --timeout ended it\n",
                               std::chrono::duration<double>(delay).count());
    if (length > 0) {
      [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, message, size_t(length));
    }
    ::_exit(WatchdogExitCode);
  });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  disarmed_.notify_one();
  thread_.join();
}

} // namespace hoist
