#include "Discover/ParallelExplorer.h"

#include <atomic>

namespace hoist {

struct ParallelExplorer::Batch {
  std::vector<uint64_t> entries;
  std::vector<ExploreHints> hints;
  std::vector<Exploration> results;
  const LiftOptions *options = nullptr;
  std::vector<InstructionCache *> caches;   ///< one per thread; the calling thread's is first
  std::atomic<size_t> next{0};
};

ParallelExplorer::ParallelExplorer(const Image &image, unsigned threads, size_t cacheBudget)
    : image_(image), threads_(std::max(1u, threads)), cacheBudget_(cacheBudget) {
  for (auto &set : caches_)
    for (unsigned i = 0; i < threads_; ++i)
      set.push_back(std::make_unique<InstructionCache>(image));
  for (unsigned slot = 1; slot < threads_; ++slot)
    helpers_.emplace_back([this, slot] { serve(slot); });
}

ParallelExplorer::~ParallelExplorer() {
  if (inFlight_)
    (void)finish();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  posted_.notify_all();
  for (std::thread &helper : helpers_)
    helper.join();
}

void ParallelExplorer::serve(unsigned slot) {
  uint64_t seen = 0;
  for (;;) {
    Batch *batch;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      posted_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_)
        return;
      seen = generation_;
      batch = inFlight_.get();
    }
    work(*batch, *batch->caches[slot]);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --helpersBusy_;
    }
    finished_.notify_one();
  }
}

void ParallelExplorer::work(Batch &batch, InstructionCache &cache) {
  for (size_t i = batch.next++; i < batch.entries.size(); i = batch.next++) {
    if (batch.options->pastDeadline())
      continue;
    batch.results[i].function = discoverFunction(image_, cache, batch.entries[i], *batch.options,
                                                 batch.results[i].diagnostics, batch.hints[i]);
    batch.results[i].done = true;
  }
}

void ParallelExplorer::start(llvm::ArrayRef<uint64_t> entries,
                             llvm::function_ref<ExploreHints(uint64_t)> hintsFor,
                             const LiftOptions &options) {
  if (inFlight_)
    (void)finish();
  auto batch = std::make_unique<Batch>();
  batch->entries.assign(entries.begin(), entries.end());
  batch->results.resize(entries.size());
  batch->options = &options;
  // Hints are built here, on the calling thread: hintsFor reads the caller's state.
  batch->hints.reserve(entries.size());
  for (uint64_t entry : entries)
    batch->hints.push_back(hintsFor(entry));
  // This set's caches hold the instructions of the batch before the previous one, which the
  // caller has recorded: they may be trimmed now.
  for (std::unique_ptr<InstructionCache> &cache : caches_[batches_++ % 2]) {
    if (cache->size() > cacheBudget_)
      cache = std::make_unique<InstructionCache>(image_);
    batch->caches.push_back(cache.get());
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    inFlight_ = std::move(batch);
    helpersBusy_ = static_cast<unsigned>(helpers_.size());
    ++generation_;
  }
  posted_.notify_all();
}

std::vector<Exploration> ParallelExplorer::finish() {
  if (!inFlight_)
    return {};
  // The calling thread is one of the workers.
  work(*inFlight_, *inFlight_->caches[0]);
  std::unique_lock<std::mutex> lock(mutex_);
  finished_.wait(lock, [&] { return helpersBusy_ == 0; });
  std::unique_ptr<Batch> batch = std::move(inFlight_);
  return std::move(batch->results);
}

} // namespace hoist
