// Moves a State store off the branches where nothing reads what it writes (partial dead store
// elimination). A lifted loop often writes its registers back to State before a branch to a
// rarely taken lifted call (sort's merge loop: `if (keylist) keycompare (...)`, a call that
// reads State) while the other branch overwrites them all (a library call's clobber markers, or
// the loop's next writeback); LLVM's dead store elimination keeps such a store, since it is
// live on one branch. Here a store at the end of a block that ends in a two-way branch goes to
// the start of the successor where its bytes are live (StateLiveness.h) when that successor
// has no other predecessor (a block of its own on the edge would add a jump there, which may be
// the hot path); repeated, a store sinks branch by branch to the paths that need it. Runs after the optimizer, while the clobber markers still stand for
// what library calls do to State.
#pragma once

#include "Translate/LiftedCallEffects.h"

#include <llvm/IR/PassManager.h>

namespace hoist {

class PartlyDeadStateStoresPass : public llvm::PassInfoMixin<PartlyDeadStateStoresPass> {
public:
  explicit PartlyDeadStateStoresPass(const StateEffectsMap *effects = nullptr)
      : effects_(effects) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);

private:
  const StateEffectsMap *effects_;
};

} // namespace hoist
