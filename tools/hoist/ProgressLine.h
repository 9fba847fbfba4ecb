// The progress line of a long run on stderr: "hoist: lifting 1,200/2,281 functions, 3.4 s",
// redrawn in place (\r) and cleared when the run ends. Shown only when stderr is a terminal,
// not with -q, and only once the run has taken two seconds (HOIST_PROGRESS_AFTER=SECONDS sets
// another delay, for tests): a short run or a log file stays as it was.
#pragma once

#include "hoist/Progress.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace hoist {

class ProgressLine {
public:
  /// Off (no thread, progress() null) when `quiet` or stderr is not a terminal.
  explicit ProgressLine(bool quiet);
  ~ProgressLine();
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  /// What the run counts into; null when the line is off, so the run counts nothing.
  Progress *progress() { return enabled_ ? &progress_ : nullptr; }

  /// Clears the line and stops redrawing it: call before anything else goes to stderr.
  void stop();

  /// Stops the line, then reports `error` as the command's failure (reportFailure): its
  /// message goes on a line of its own. Returns the exit code.
  int fail(llvm::Error error);

  /// Output about to be written to `path` ("-": stdout): when that is the terminal, the line
  /// stops, as redrawing it would overwrite the output's own lines.
  void beforeOutputTo(llvm::StringRef path);

private:
  void redraw();
  std::string text() const;

  bool enabled_ = false;
  Progress progress_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::duration<double> delay_{2.0};
  std::mutex mutex_;   ///< one writer at a time: the ticker and a new phase's redraw
  std::condition_variable wake_;
  bool stopping_ = false;
  bool drawn_ = false;
  std::thread ticker_;
};

} // namespace hoist
