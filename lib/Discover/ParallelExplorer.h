// The explorations of one round of whole-program discovery (ProgramDiscovery.cpp), spread over
// threads. Within a round every exploration sees the same hints (the round's function starts
// and noreturn callees), so its result does not depend on when or where it is computed: the
// round's outcome is the serial one as long as the results are recorded in the serial order,
// which the caller does with what finish() hands back.
//
// A round is explored in batches, and a batch's explorations run while the caller records the
// batch before (start, record, finish): recording is serial bookkeeping, and with the threads
// waiting for it, it capped the speed-up of `hoist lift --all -j 2` (docs/PERFORMANCE.md,
// "The whole program and `-j`").
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "Support/Diagnostics.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <array>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hoist {

/// One function explored on a worker thread, with the diagnostics its exploration reported.
struct Exploration {
  DiscoveredFunction function;
  DiagnosticSink diagnostics;
  bool done = false;   ///< false: the deadline had passed before it started
};

class ParallelExplorer {
public:
  /// `cacheBudget`: a thread's decoded-instruction cache that holds more addresses than this is
  /// started afresh before its next batch (memory stays bounded; a later exploration decodes
  /// again).
  ParallelExplorer(const Image &image, unsigned threads, size_t cacheBudget);
  ~ParallelExplorer();   ///< waits for a batch still being explored, then for the helpers

  unsigned threads() const { return threads_; }

  /// Starts exploring every entry (discoverFunction with `hintsFor(entry)`, the hints built
  /// here, on the calling thread) on the helper threads, and returns: the calling thread may
  /// record the previous batch meanwhile. At most one batch is in flight. The blocks'
  /// instructions of a batch point into the caches it was explored with, which the batch after
  /// next reuses: record a batch before starting the one after the next.
  void start(llvm::ArrayRef<uint64_t> entries,
             llvm::function_ref<ExploreHints(uint64_t)> hintsFor, const LiftOptions &options);

  /// The calling thread explores what is left of the batch in flight, waits for the helpers,
  /// and returns the results in the order of the batch's entries.
  std::vector<Exploration> finish();

private:
  struct Batch;
  /// Explores the batch's entries not yet taken, with `cache`, until none is left.
  void work(Batch &batch, InstructionCache &cache);
  /// Helper thread `slot` (from 1): explores every batch posted until the explorer goes.
  void serve(unsigned slot);

  const Image &image_;
  unsigned threads_;
  size_t cacheBudget_;
  /// Two sets of caches, one per thread each, used by alternate batches: a batch is explored
  /// with one set while the instructions of the batch before, in the other, are recorded.
  std::array<std::vector<std::unique_ptr<InstructionCache>>, 2> caches_;
  uint64_t batches_ = 0;   ///< batches started: the next one uses caches_[batches_ % 2]
  std::unique_ptr<Batch> inFlight_;
  /// The helper threads live as long as the explorer: one thread per round and helper, as
  /// before, started 21 threads for bash, each with a fresh heap of the allocator.
  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable posted_;     ///< a batch was posted, or the explorer goes
  std::condition_variable finished_;   ///< a helper finished its part of the batch
  uint64_t generation_ = 0;            ///< batches posted
  unsigned helpersBusy_ = 0;           ///< helpers not done with the batch posted last
  bool stopping_ = false;
};

} // namespace hoist
