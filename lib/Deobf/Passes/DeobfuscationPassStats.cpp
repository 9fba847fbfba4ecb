// Per-function counters of the deobfuscation passes; brightening runs them over several
// functions (probes, then the final ones), so the sums are kept by name.
#include "Deobf/Passes/DeobfPasses.h"

namespace hoist {

void DeobfuscationPassStats::add(const std::string &function, const DeobfuscationCounts &counts) {
  std::lock_guard<std::mutex> lock(mutex_);
  DeobfuscationCounts &sum = byFunction_[function];
  sum.mbaSimplified += counts.mbaSimplified;
  sum.branchesFolded += counts.branchesFolded;
  sum.dispatchersUnflattened += counts.dispatchersUnflattened;
  sum.edgesThreaded += counts.edgesThreaded;
}

std::map<std::string, DeobfuscationCounts> DeobfuscationPassStats::byFunction() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return byFunction_;
}

void addDeobfuscationPasses(llvm::FunctionPassManager &passes, DeobfuscationPassStats *stats) {
  // Arithmetic first: a simplified MBA can make a predicate's shape plain; folded predicates
  // leave the dispatcher only the real edges to thread.
  passes.addPass(SimplifyMbaPass(stats));
  passes.addPass(FoldOpaquePredicatesPass(stats));
  passes.addPass(UnflattenPass(stats));
}

} // namespace hoist
