// Deciding a symbolic branch condition while lifting concolically (docs/DEOBFUSCATE.md): the
// values it can take first (selects and phis of constants), then a proof by Z3 through the
// passes' prover (lib/Deobf/Passes/Prover.h) within the function's budget. Testing alone never
// folds a branch: it only spares Z3 the conditions it refutes.
#pragma once

#include "Deobf/Concolic/DeobfuscateOptions.h"

#include <llvm/IR/Value.h>

#include <optional>
#include <string>

namespace hoist {

struct ConditionDecision {
  std::optional<bool> value;   ///< the value the condition always has, if decided
  bool proved = false;         ///< decided by Z3 (not by its possible values)
  std::string budget;          ///< the budget that stopped a proof, if one did
};

/// One per concolically lifted function, kept across its restarts: the time budget is the
/// function's.
class BranchProver {
public:
  explicit BranchProver(const DeobfuscateOptions &options) : options_(options) {}

  /// `condition` (an i1 that is not a constant) decided, or why not.
  ConditionDecision decide(llvm::Value *condition);

private:
  const DeobfuscateOptions &options_;
  double spentMs_ = 0;
};

} // namespace hoist
