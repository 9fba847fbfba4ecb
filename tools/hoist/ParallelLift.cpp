#include "ParallelLift.h"
#include "DeobfuscationRecords.h"

#include "Deobf/Concolic/ConcolicLifter.h"
#include "Deobf/Passes/DeobfPasses.h"
#include "Passes/TidyOutput.h"
#include "Support/Error.h"
#include "Support/TimeBudget.h"
#include "hoist/Optimize.h"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace hoist {
namespace {

/// Functions per chunk: enough that a worker's fixed costs (a context, a module, the
/// optimizer's set-up) are shared, few enough that a chunk's IR stays small. (64 made bash's
/// `--all -j 1` 0.5% fewer machine instructions by callgrind: the fixed costs are small.)
constexpr size_t FunctionsPerChunk = 16;

/// The chunks in the order the workers take them: largest first, so that no worker is left
/// with a large chunk when the others have finished. A chunk's size is the span of addresses
/// from its first function to the next chunk's (the functions are sorted; the last chunk counts
/// to its last entry), which follows the machine code it holds without decoding it again.
/// Which worker lifts a chunk changes nothing in its output.
std::vector<size_t> largestChunksFirst(llvm::ArrayRef<uint64_t> entries, size_t chunks) {
  std::vector<uint64_t> span(chunks);
  for (size_t chunk = 0; chunk < chunks; ++chunk) {
    size_t first = chunk * FunctionsPerChunk;
    size_t end = std::min(first + FunctionsPerChunk, entries.size());
    span[chunk] = (end < entries.size() ? entries[end] : entries.back()) - entries[first];
  }
  std::vector<size_t> order(chunks);
  for (size_t chunk = 0; chunk < chunks; ++chunk)
    order[chunk] = chunk;
  std::stable_sort(order.begin(), order.end(),
                   [&span](size_t a, size_t b) { return span[a] > span[b]; });
  return order;
}

struct ChunkOutcome {
  LiftStats stats;
  DiagnosticSink diagnostics;
  llvm::json::Array deobfuscation;     ///< the chunk's `deobfuscation` records
  uint64_t skipped = 0;                 ///< functions not lifted: the deadline had passed
  std::optional<std::string> failure;   ///< a chunk that could not be written or verified
};

/// Lifts, optimizes and writes one chunk in a context of its own.
void liftChunk(const Image &image, const Lifter &discoverer, llvm::ArrayRef<uint64_t> entries,
               const LiftCommandOptions &options, ChunkOutcome &outcome) {
  llvm::LLVMContext context;
  context.setDiscardValueNames(!options.valueNames);
  Lifter lifter(image, context, outcome.diagnostics, discoverer.options());
  lifter.adoptDiscovery(discoverer);
  std::vector<DeobfuscationStats> deobfuscated;
  // --deobfuscate, as without -j: the functions the command line named are lifted
  // concolically first (liftFunction then keeps their bodies), the passes run in every round.
  if (options.deobfuscate)
    for (const std::string &spec : options.functions) {
      llvm::Expected<uint64_t> named = resolveFunction(image, spec);
      if (!named || !llvm::is_contained(entries, *named)) {
        llvm::consumeError(named.takeError());   // runLift has resolved it already
        continue;
      }
      llvm::Expected<DeobfuscationStats> stats = deobfuscateFunction(
          lifter.module(), image, *named, *options.deobfuscate, outcome.diagnostics);
      if (!stats) {
        outcome.failure = llvm::toString(stats.takeError());
        return;
      }
      deobfuscated.push_back(*stats);
    }
  for (uint64_t entry : entries) {
    if (lifter.options().pastDeadline()) {
      ++outcome.skipped;
      continue;
    }
    llvm::Expected<llvm::Function *> lifted = lifter.liftFunction(entry);
    if (!lifted)
      outcome.diagnostics.error("lift-failed", entry,
                                llvm::toString(lifted.takeError()) +
                                    "; calls to it are runtime calls (__hoist_call)");
  }
  outcome.stats = lifter.stats();
  std::unique_ptr<llvm::Module> module = lifter.takeUnfinishedModule();
  OptimizeOptions optimize{.level = options.optLevel};
  DeobfuscationPassStats passStats;
  if (options.deobfuscatePasses)
    optimize.roundPasses.push_back(deobfuscationRoundPasses(&passStats));
  optimizeModule(*module, &image, optimize);
  outcome.deobfuscation = deobfuscationRecords(
      deobfuscated, options.deobfuscatePasses ? &passStats : nullptr, *module, image);
  std::string name = liftedFunctionName(entries.front()) + "." + options.emit;
  // takeUnfinishedModule verified the lifted module when optimizing (liftOptionsFor); at -O0
  // nothing changed it since.
  if (options.optLevel > 0 && llvm::verifyModule(*module, &llvm::errs())) {
    outcome.failure = name + ": lifted module fails the LLVM verifier (a Hoist bug)";
    return;
  }
  if (options.optLevel > 0)
    tidyOptimizedModule(*module);
  llvm::SmallString<256> path(options.outputPath);
  llvm::sys::path::append(path, name);
  std::error_code error;
  llvm::raw_fd_ostream out(path, error,
                           options.emit == "bc" ? llvm::sys::fs::OF_None : llvm::sys::fs::OF_Text);
  if (error) {
    outcome.failure = std::string(path) + ": cannot write: " + error.message();
    return;
  }
  if (options.emit == "bc")
    llvm::WriteBitcodeToFile(*module, out);
  else
    printTextIR(*module, image, options, out);
}

} // namespace

unsigned allCores() { return std::max(1u, std::thread::hardware_concurrency()); }

llvm::Expected<LiftStats> liftInParallel(const Image &image, const Lifter &discoverer,
                                         std::vector<uint64_t> entries,
                                         const LiftCommandOptions &options,
                                         DiagnosticSink &diagnostics,
                                         llvm::json::Array &deobfuscation,
                                         Progress *progress) {
  if (std::error_code error = llvm::sys::fs::create_directories(options.outputPath))
    return makeError("{0}: cannot create the output directory: {1}", options.outputPath,
                     error.message());
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  size_t chunks = (entries.size() + FunctionsPerChunk - 1) / FunctionsPerChunk;
  // Each worker keeps only its own chunk's IR; what stays is a chunk's stats and diagnostics.
  std::vector<ChunkOutcome> outcomes(chunks);
  std::vector<size_t> order = largestChunksFirst(entries, chunks);
  std::atomic<size_t> next{0};
  beginPhase(progress, "lifting", entries.size());
  auto work = [&] {
    for (size_t taken = next++; taken < chunks; taken = next++) {
      size_t chunk = order[taken];
      size_t first = chunk * FunctionsPerChunk;
      size_t count = std::min(FunctionsPerChunk, entries.size() - first);
      liftChunk(image, discoverer, llvm::ArrayRef(entries).slice(first, count), options,
                outcomes[chunk]);
      advanceProgress(progress, count);
    }
  };
  unsigned workers = options.jobs.value_or(1) == 0 ? allCores() : options.jobs.value_or(1);
  // Every worker is a new thread, -j 1 included: glibc gives a new thread an allocator arena
  // of its own, while the main thread's heap is full of the holes discovery left (its
  // decoded-instruction cache freed and refilled among the blocks it keeps). Chunks lifted on
  // the main thread were served from those holes spread over the whole heap, and every
  // allocation and use of the IR missed the cache more as the program grew: 1M instructions
  // took 2x the time per instruction of 100k (docs/PERFORMANCE.md). mimalloc, the executables'
  // allocator by default (cmake/Allocator.cmake), keeps a heap per thread as well.
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < workers; ++i)
    threads.emplace_back(work);
  for (std::thread &thread : threads)
    thread.join();

  LiftStats total;
  uint64_t skipped = 0;
  for (ChunkOutcome &outcome : outcomes) {
    if (outcome.failure)
      return makeError("{0}", *outcome.failure);
    addLiftStats(total, outcome.stats);
    skipped += outcome.skipped;
    // In chunk order, which does not depend on the number of workers.
    for (llvm::json::Value &record : outcome.deobfuscation)
      deobfuscation.push_back(std::move(record));
    for (const Diagnostic &d : outcome.diagnostics.all())
      diagnostics.report(d.severity, d.code, d.address, d.message);
  }
  if (skipped)
    reportTimeBudgetExhausted(diagnostics, std::to_string(skipped) + " of " +
                                               std::to_string(entries.size()) +
                                               " functions not lifted");
  return total;
}

} // namespace hoist
