#include "Discover/ParallelExplorer.h"

#include <atomic>
#include <thread>

namespace hoist {

ParallelExplorer::ParallelExplorer(const Image &image, unsigned threads) : image_(image) {
  for (unsigned i = 0; i < std::max(1u, threads); ++i)
    caches_.push_back(std::make_unique<InstructionCache>(image));
}

std::vector<Exploration> ParallelExplorer::explore(
    llvm::ArrayRef<uint64_t> entries, llvm::function_ref<ExploreHints(uint64_t)> hintsFor,
    const LiftOptions &options) {
  std::vector<Exploration> results(entries.size());
  // Hints are built here, on the calling thread: hintsFor reads the caller's state.
  std::vector<ExploreHints> hints;
  hints.reserve(entries.size());
  for (uint64_t entry : entries)
    hints.push_back(hintsFor(entry));
  std::atomic<size_t> next{0};
  auto work = [&](InstructionCache &cache) {
    for (size_t i = next++; i < entries.size(); i = next++) {
      if (options.pastDeadline())
        continue;
      results[i].function =
          discoverFunction(image_, cache, entries[i], options, results[i].diagnostics, hints[i]);
      results[i].done = true;
    }
  };
  // The calling thread is one of the workers.
  std::vector<std::thread> helpers;
  for (size_t i = 1; i < caches_.size() && i < entries.size(); ++i)
    helpers.emplace_back(work, std::ref(*caches_[i]));
  work(*caches_[0]);
  for (std::thread &helper : helpers)
    helper.join();
  return results;
}

void ParallelExplorer::trimCaches(size_t budget) {
  for (std::unique_ptr<InstructionCache> &cache : caches_)
    if (cache->size() > budget)
      cache = std::make_unique<InstructionCache>(image_);
}

} // namespace hoist
