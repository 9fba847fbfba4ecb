#include "Deobf/Concolic/BranchProver.h"

#include "Deobf/Concolic/PossibleTargets.h"
#include "Deobf/Passes/Prover.h"

#include <llvm/IR/Constants.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <chrono>

namespace hoist {
namespace {

/// Root 0 differs from root 1 with leaves set to values the DAG's own constants suggest (c,
/// c +- 1, -c, sums and differences), one leaf at a time or all alike: random words rarely meet
/// `x == 5`, and each refutation here spares Z3 a query.
bool refutedByOwnConstants(const deobf::Expression &expression) {
  std::vector<uint64_t> constants;
  for (llvm::Instruction *node : expression.nodes())
    for (llvm::Value *operand : node->operands())
      if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(operand);
          constant && constants.size() < 8)
        constants.push_back(constant->getValue().getLoBits(64).getZExtValue());
  std::vector<uint64_t> candidates;
  for (uint64_t c : constants) {
    candidates.insert(candidates.end(), {c, c + 1, c - 1, 0 - c});
    for (uint64_t d : constants)
      candidates.insert(candidates.end(), {c - d, c + d});
  }
  size_t leaves = expression.leaves().size();
  auto differs = [&](const std::vector<uint64_t> &point) {
    std::vector<uint64_t> values = expression.evaluate(point);
    return values[0] != values[1];
  };
  for (uint64_t candidate : candidates) {
    if (differs(std::vector<uint64_t>(leaves, candidate)))
      return true;
    for (size_t i = 0; i < leaves && leaves > 1; ++i) {
      std::vector<uint64_t> point(leaves, 0);
      point[i] = candidate;
      if (differs(point))
        return true;
    }
  }
  return false;
}

} // namespace

ConditionDecision BranchProver::decide(llvm::Value *condition) {
  if (std::optional<std::vector<uint64_t>> values = possibleTargets(condition, 2);
      values && values->size() == 1)
    return {values->front() != 0, false, {}};
  if (!deobf::haveZ3())
    return {};   // what only a proof can fold stays as it is
  for (bool value : {true, false}) {
    std::optional<deobf::Expression> expression = deobf::Expression::collect(
        {condition, llvm::ConstantInt::getBool(condition->getContext(), value)},
        deobf::ExpressionKind::Condition, options_.maxProofNodes, options_.maxProofLeaves);
    if (!expression)
      return {std::nullopt, false,
              llvm::formatv("a branch condition's size for a proof ({0} instructions, {1} "
                            "leaves)",
                            options_.maxProofNodes, options_.maxProofLeaves)
                  .str()};
    if (expression->leaves().empty() || !deobf::testsAgree(*expression) ||
        refutedByOwnConstants(*expression))
      continue;
    // Every test point gives `value`: worth a proof.
    if (spentMs_ >= options_.proofBudgetMs)
      return {std::nullopt, false,
              llvm::formatv("Z3 time per function ({0} ms)", options_.proofBudgetMs).str()};
    unsigned timeout = static_cast<unsigned>(
        std::min<double>(options_.proofTimeoutMs, options_.proofBudgetMs - spentMs_ + 1));
    auto start = std::chrono::steady_clock::now();
    deobf::Verdict verdict =
        deobf::proveEqual(*expression, timeout, options_.proofResourceLimit);
    spentMs_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    if (verdict == deobf::Verdict::Proved)
      return {value, true, {}};
    if (verdict == deobf::Verdict::Unknown)
      return {std::nullopt, false,
              llvm::formatv("Z3 work per proof ({0} units, {1} ms)",
                            options_.proofResourceLimit, options_.proofTimeoutMs)
                  .str()};
    return {};
  }
  return {};
}

} // namespace hoist
