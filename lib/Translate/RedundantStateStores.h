// Removes stores that write to a State field the value it already holds. The lifter writes
// the registers back to State before every call; once library calls are native calls that
// cannot see State (ImportCalls.h), most of those writebacks in a loop store the same value
// the field got on the way in (a phi of the loaded value), yet no LLVM pass removes them:
// DSE sees no later store that kills them, and GVN does not reason about stores through phis.
// Each kept store also keeps its value alive across the library call, spilled and reloaded.
#pragma once

#include "Translate/LiftedCallEffects.h"

#include <llvm/IR/PassManager.h>

namespace hoist {

/// A forward data-flow over each lifted function: for every State field (offset and type),
/// which SSA value the field is known to hold. A load establishes its own value, a store the
/// stored one, a phi the field's value when every predecessor held the phi's incoming value;
/// a call of a lifted function forgets the fields its summary (`effects`, when given) says it
/// may write; any other call that receives State or a store through an unknown State offset
/// forgets everything,
/// and a value's redefinition (a loop's next iteration) forgets the facts about it. A store of
/// the value the field is known to hold is erased. Functions whose first argument is not a
/// noalias State (anything but lifted code) are left alone.
class RedundantStateStoresPass : public llvm::PassInfoMixin<RedundantStateStoresPass> {
public:
  explicit RedundantStateStoresPass(const StateEffectsMap *effects = nullptr)
      : effects_(effects) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);

private:
  const StateEffectsMap *effects_;
};

/// Runs this pass, ClobberedStateStoresPass and the cleanups they enable (dead phis and values
/// only the stores used) over every function of `module`; returns the number of stores removed.
uint64_t removeRedundantStateStores(llvm::Module &module, const StateEffectsMap *effects);

} // namespace hoist
