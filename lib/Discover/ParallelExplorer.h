// The explorations of one round of whole-program discovery (ProgramDiscovery.cpp), spread over
// threads. Within a round every exploration sees the same hints (the round's function starts
// and noreturn callees), so its result does not depend on when or where it is computed: the
// round's outcome is the serial one as long as the results are recorded in the serial order,
// which the caller does with what explore() hands back.
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "Support/Diagnostics.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <memory>
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
  ParallelExplorer(const Image &image, unsigned threads);

  unsigned threads() const { return static_cast<unsigned>(caches_.size()); }

  /// Explores every entry (discoverFunction with `hintsFor(entry)`) on the threads; the results
  /// are in the order of `entries`. Their blocks' instructions point into this explorer's
  /// caches: record them before the next call or trimCaches().
  std::vector<Exploration> explore(llvm::ArrayRef<uint64_t> entries,
                                   llvm::function_ref<ExploreHints(uint64_t)> hintsFor,
                                   const LiftOptions &options);

  /// Starts afresh every thread's cache that holds more than `budget` addresses (memory stays
  /// bounded; a later exploration decodes again).
  void trimCaches(size_t budget);

private:
  const Image &image_;
  std::vector<std::unique_ptr<InstructionCache>> caches_;   ///< one per thread
};

} // namespace hoist
