#include "ProgressLine.h"
#include "Commands.h"
#include "DiagnosticReport.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Process.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <unistd.h>

namespace hoist {
namespace {

/// How often the line is redrawn: often enough to look alive, rarely enough to cost nothing.
constexpr std::chrono::milliseconds RedrawInterval{250};

/// HOIST_PROGRESS_AFTER, in seconds, when it is a number of them.
std::optional<double> delayFromEnvironment() {
  std::optional<std::string> value = llvm::sys::Process::GetEnv("HOIST_PROGRESS_AFTER");
  if (!value)
    return std::nullopt;
  char *end = nullptr;
  double seconds = std::strtod(value->c_str(), &end);
  if (end == value->c_str() || *end || !(seconds >= 0))
    return std::nullopt;
  return seconds;
}

/// Straight to the file descriptor: llvm::errs() belongs to the main thread.
void writeToStderr(const std::string &text) {
  for (size_t written = 0; written < text.size();) {
    ssize_t n = ::write(STDERR_FILENO, text.data() + written, text.size() - written);
    if (n <= 0)
      return;
    written += n;
  }
}

/// Back to the start of the line, and erase it to its end (ANSI "erase in line").
constexpr const char *ClearLine = "\r\x1b[K";

} // namespace

ProgressLine::ProgressLine(bool quiet) {
  enabled_ = !quiet && llvm::sys::Process::StandardErrIsDisplayed();
  if (!enabled_)
    return;
  if (std::optional<double> seconds = delayFromEnvironment())
    delay_ = std::chrono::duration<double>(*seconds);
  progress_.begin("loading");
  progress_.onPhase([this] { redraw(); });
  ticker_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      redraw();
      lock.lock();
      wake_.wait_for(lock, RedrawInterval, [this] { return stopping_; });
    }
  });
}

ProgressLine::~ProgressLine() { stop(); }

void ProgressLine::stop() {
  if (!enabled_)
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_)
      return;
    stopping_ = true;
    if (drawn_)
      writeToStderr(ClearLine);
  }
  wake_.notify_all();
  ticker_.join();
}

void ProgressLine::beforeOutputTo(llvm::StringRef path) {
  if (path == "-" && llvm::sys::Process::StandardOutIsDisplayed())
    stop();
}

void ProgressLine::redraw() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_ || std::chrono::steady_clock::now() - start_ < delay_)
    return;
  writeToStderr(ClearLine + text());
  drawn_ = true;
}

std::string ProgressLine::text() const {
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  const char *phase = progress_.phase();
  std::string out = std::string("hoist: ") + (phase ? phase : "working");
  if (uint64_t total = progress_.total())
    out += " " + withThousands(std::min(progress_.done(), total)) + "/" + withThousands(total) +
           " functions";
  return out + llvm::formatv(", {0:F1} s", elapsed.count()).str();
}

int ProgressLine::fail(llvm::Error error) {
  stop();
  return reportFailure(std::move(error));
}

} // namespace hoist
