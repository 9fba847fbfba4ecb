#include "Brighten/OffsetBounds.h"

#include "Passes/Passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>

#include <algorithm>

namespace hoist {
namespace {

std::optional<ValueRange> bounded(const llvm::ConstantRange &range) {
  if (range.isFullSet() || range.isEmptySet())
    return std::nullopt;
  return ValueRange{range.getSignedMin().getSExtValue(), range.getSignedMax().getSExtValue()};
}

/// Whether `access` runs on every iteration of `loop` that goes on to the next: its block
/// dominates the only latch, and nothing before it in the block can leave the block.
bool runsOnEveryIteration(llvm::Instruction &access, const llvm::Loop &loop,
                          const llvm::DominatorTree &dominators) {
  llvm::BasicBlock *latch = loop.getLoopLatch();
  if (!latch || !loop.contains(&access) || !dominators.dominates(access.getParent(), latch))
    return false;
  for (llvm::Instruction &before : *access.getParent()) {
    if (&before == &access)
      return true;
    if (!llvm::isGuaranteedToTransferExecutionToSuccessor(&before))
      return false;
  }
  return false;
}

} // namespace

llvm::ScalarEvolution &OffsetBounds::evolution() {
  if (!evolution_)
    evolution_ = &analyses_.getResult<llvm::ScalarEvolutionAnalysis>(function_);
  return *evolution_;
}

void OffsetBounds::invalidate() {
  if (evolution_)
    analyses_.invalidate(function_, preservedAfter(true));
  evolution_ = nullptr;
}

std::optional<ValueRange> OffsetBounds::of(llvm::Value *value,
                                           llvm::ArrayRef<llvm::Instruction *> accesses) {
  if (!value->getType()->isIntegerTy() || value->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  const llvm::SCEV *expression = evolution().getSCEV(value);
  if (std::optional<ValueRange> range = bounded(evolution().getSignedRange(expression)))
    return range;
  return accesses.empty() ? std::nullopt : inductionWalk(expression, accesses);
}

std::optional<ValueRange>
OffsetBounds::inductionWalk(const llvm::SCEV *value, llvm::ArrayRef<llvm::Instruction *> accesses) {
  // A 64-bit walk: a narrower one zero- or sign-extended would wrap within the stack.
  auto *walk = llvm::dyn_cast<llvm::SCEVAddRecExpr>(value);
  if (!walk || !walk->isAffine() || walk->getType()->getIntegerBitWidth() != 64)
    return std::nullopt;
  // Upward by a step small enough to land past the stack's end before it wraps.
  auto *step = llvm::dyn_cast<llvm::SCEVConstant>(walk->getStepRecurrence(evolution()));
  if (!step || step->getAPInt().isNonPositive() || step->getAPInt().getActiveBits() > 32)
    return std::nullopt;
  const llvm::Loop &loop = *walk->getLoop();
  // One way out, after an exact count: the walk ends at its last value, nowhere else.
  if (!loop.getExitingBlock())
    return std::nullopt;
  const llvm::SCEV *count = evolution().getBackedgeTakenCount(&loop);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(count))
    return std::nullopt;
  auto &dominators = analyses_.getResult<llvm::DominatorTreeAnalysis>(function_);
  if (llvm::none_of(accesses, [&](llvm::Instruction *access) {
        return runsOnEveryIteration(*access, loop, dominators);
      }))
    return std::nullopt;
  std::optional<ValueRange> first = bounded(evolution().getSignedRange(walk->getStart()));
  std::optional<ValueRange> last =
      bounded(evolution().getSignedRange(walk->evaluateAtIteration(count, evolution())));
  if (!first || !last || first->lowest < 0)
    return std::nullopt;
  return ValueRange{first->lowest, std::max(first->lowest, last->highest)};
}

} // namespace hoist
