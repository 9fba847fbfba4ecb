// How far a long run has got, for whoever shows it (the `hoist` command's progress line on a
// terminal, tools/hoist/ProgressLine.h). The run names each phase and counts what it has done;
// a reader on another thread samples the counts, so they are atomics and nothing waits.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace hoist {

class Progress {
public:
  /// A new phase, `what` ("lifting"), of `total` functions (0: not counted). `what` outlives
  /// the run: a string literal.
  void begin(const char *what, uint64_t total = 0) {
    done_.store(0, std::memory_order_relaxed);
    total_.store(total, std::memory_order_relaxed);
    phase_.store(what, std::memory_order_release);
    if (onPhase_)
      onPhase_();
  }
  /// `count` more functions of the phase are done; any thread.
  void advance(uint64_t count = 1) { done_.fetch_add(count, std::memory_order_relaxed); }

  const char *phase() const { return phase_.load(std::memory_order_acquire); }
  uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  uint64_t total() const { return total_.load(std::memory_order_relaxed); }

  /// Called on the thread that begins each phase, so that a new phase shows at once.
  void onPhase(std::function<void()> observer) { onPhase_ = std::move(observer); }

private:
  std::atomic<const char *> phase_{nullptr};
  std::atomic<uint64_t> done_{0};
  std::atomic<uint64_t> total_{0};
  std::function<void()> onPhase_;
};

/// For the code that takes an optional Progress: nothing when nobody listens.
inline void beginPhase(Progress *progress, const char *what, uint64_t total = 0) {
  if (progress)
    progress->begin(what, total);
}
inline void advanceProgress(Progress *progress, uint64_t count = 1) {
  if (progress)
    progress->advance(count);
}

} // namespace hoist
