#include "Passes/ImpossibleSwitchDefaults.h"

#include <llvm/Analysis/LazyValueInfo.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

namespace hoist {
namespace {

/// A larger range is not worth walking value by value; jump tables are far smaller.
constexpr uint64_t MaxCheckedValues = 4096;

/// The values `selector` can take at `at`: LazyValueInfo's range, narrowed for `and %x, MASK`
/// (MASK a run of low ones) by the range of a `trunc %x` wide enough for MASK that dominates
/// `at`, which is what a bounds check on the narrow register compared.
llvm::ConstantRange selectorRange(llvm::Value *selector, llvm::Instruction *at,
                                  llvm::LazyValueInfo &values, llvm::DominatorTree &dominators) {
  using namespace llvm::PatternMatch;
  llvm::ConstantRange range = values.getConstantRange(selector, at, /*UndefAllowed=*/false);
  llvm::Value *wide = nullptr;
  const llvm::APInt *mask = nullptr;
  if (!match(selector, m_And(m_Value(wide), m_APInt(mask))) || !mask->isMask())
    return range;
  unsigned width = selector->getType()->getIntegerBitWidth();
  for (llvm::User *user : wide->users()) {
    auto *narrow = llvm::dyn_cast<llvm::TruncInst>(user);
    if (!narrow || narrow->getType()->getIntegerBitWidth() < mask->getActiveBits() ||
        !dominators.dominates(narrow, at))
      continue;
    llvm::ConstantRange bits = values.getConstantRange(narrow, at, /*UndefAllowed=*/false)
                                   .zeroExtend(width)
                                   .binaryAnd(llvm::ConstantRange(*mask));
    range = range.intersectWith(bits);
  }
  return range;
}

/// Whether every value in `range` is a case of `switchInst`.
bool casesCover(llvm::SwitchInst &switchInst, const llvm::ConstantRange &range) {
  if (range.isFullSet() || range.isWrappedSet() ||
      range.isSizeLargerThan(std::min<uint64_t>(switchInst.getNumCases(), MaxCheckedValues)))
    return false;
  for (llvm::APInt value = range.getLower(); value != range.getUpper(); ++value)
    if (switchInst.findCaseValue(llvm::ConstantInt::get(switchInst.getContext(), value)) ==
        switchInst.case_default())
      return false;
  return true;
}

} // namespace

llvm::PreservedAnalyses ImpossibleSwitchDefaultsPass::run(llvm::Function &function,
                                                          llvm::FunctionAnalysisManager &analyses) {
  llvm::SmallVector<llvm::SwitchInst *, 8> impossible;
  {
    auto &values = analyses.getResult<llvm::LazyValueAnalysis>(function);
    auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
    for (llvm::BasicBlock &block : function) {
      auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(block.getTerminator());
      if (!switchInst || switchInst->getNumCases() == 0 ||
          llvm::isa<llvm::UnreachableInst>(switchInst->getDefaultDest()->getFirstNonPHIOrDbg()))
        continue;
      if (casesCover(*switchInst,
                     selectorRange(switchInst->getCondition(), switchInst, values, dominators)))
        impossible.push_back(switchInst);
    }
  }
  for (llvm::SwitchInst *switchInst : impossible) {
    llvm::BasicBlock *block = switchInst->getParent();
    auto *never = llvm::BasicBlock::Create(function.getContext(), "impossible_default", &function,
                                           block->getNextNode());
    new llvm::UnreachableInst(function.getContext(), never);
    switchInst->getDefaultDest()->removePredecessor(block);
    switchInst->setDefaultDest(never);
  }
  if (removed_)
    *removed_ += impossible.size();
  return impossible.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

} // namespace hoist
