// Per-function counters of the deobfuscation passes; brightening runs them over several
// functions (probes, then the final ones), so the sums are kept by name.
#include "Deobf/Passes/DeobfPasses.h"

namespace hoist {

DeobfuscationCounts &DeobfuscationCounts::operator+=(const DeobfuscationCounts &other) {
  mbaSimplified += other.mbaSimplified;
  branchesFolded += other.branchesFolded;
  dispatchersUnflattened += other.dispatchersUnflattened;
  edgesThreaded += other.edgesThreaded;
  return *this;
}

llvm::json::Object DeobfuscationCounts::toJSON() const {
  return llvm::json::Object{{"mba_simplified", mbaSimplified},
                            {"predicates_folded", branchesFolded},
                            {"dispatchers_unflattened", dispatchersUnflattened},
                            {"edges_threaded", edgesThreaded}};
}

void DeobfuscationPassStats::add(const std::string &function, const DeobfuscationCounts &counts) {
  std::lock_guard<std::mutex> lock(mutex_);
  byFunction_[function] += counts;
}

std::map<std::string, DeobfuscationCounts> DeobfuscationPassStats::byFunction() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return byFunction_;
}

} // namespace hoist
