#include "Discover/ParallelExplorer.h"

namespace hoist {

struct ParallelExplorer::Batch {
  std::vector<uint64_t> entries;
  std::vector<ExploreHints> hints;
  std::vector<Exploration> results;
  const LiftOptions *options = nullptr;
  std::vector<InstructionCache *> caches;   ///< one per thread; the calling thread's is first
  std::atomic<size_t> next{0};
  std::vector<std::thread> helpers;
};

ParallelExplorer::ParallelExplorer(const Image &image, unsigned threads, size_t cacheBudget)
    : image_(image), threads_(std::max(1u, threads)), cacheBudget_(cacheBudget) {
  for (auto &set : caches_)
    for (unsigned i = 0; i < threads_; ++i)
      set.push_back(std::make_unique<InstructionCache>(image));
}

ParallelExplorer::~ParallelExplorer() {
  if (inFlight_)
    (void)finish();
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
  for (size_t i = 1; i < threads_ && i < entries.size(); ++i)
    batch->helpers.emplace_back([this, &batch = *batch, i] { work(batch, *batch.caches[i]); });
  inFlight_ = std::move(batch);
}

std::vector<Exploration> ParallelExplorer::finish() {
  std::unique_ptr<Batch> batch = std::move(inFlight_);
  if (!batch)
    return {};
  // The calling thread is one of the workers.
  work(*batch, *batch->caches[0]);
  for (std::thread &helper : batch->helpers)
    helper.join();
  return std::move(batch->results);
}

} // namespace hoist
