// The iterate-until-stable loop of the block data-flow analyses over lifted functions
// (ClobberedStateStores' liveness and clobbered registers, RedundantStateStores' known field
// values): each block's result is recomputed from its neighbours' until none changes.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Function.h>

#include <climits>
#include <map>

namespace hoist {

enum class FlowDirection { Forward, Backward };

/// Calls `update` on every block reachable from the entry, in reverse post-order for a forward
/// problem and post-order for a backward one (so most blocks see their inputs first), and
/// repeats while any call reported a changed result, at most `maxRounds` times. Returns whether
/// the results are stable (false: the budget ran out first).
bool solveBlockDataflow(llvm::Function &function, FlowDirection direction,
                        llvm::function_ref<bool(llvm::BasicBlock &)> update,
                        unsigned maxRounds = UINT_MAX);

/// Records `result` as `block`'s; true when it is new or differs from the one recorded.
template <typename Result>
bool recordBlockResult(std::map<llvm::BasicBlock *, Result> &results, llvm::BasicBlock *block,
                       Result &&result) {
  auto [it, inserted] = results.try_emplace(block, result);
  if (inserted)
    return true;
  if (it->second == result)
    return false;
  it->second = std::move(result);
  return true;
}

} // namespace hoist
