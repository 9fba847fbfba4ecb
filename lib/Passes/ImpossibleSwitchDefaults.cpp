#include "Passes/ImpossibleSwitchDefaults.h"

#include <llvm/Analysis/LazyValueInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

#include <set>

namespace hoist {
namespace {

/// A larger range is not worth walking value by value; jump tables are far smaller.
constexpr uint64_t MaxCheckedValues = 4096;

/// How many low bits of `value` may be nonzero: through phis and selects of zero-extended
/// values and constants as far as they go (computeKnownBits gives up on a phi of phis, which
/// a loop around a jump table makes), else what computeKnownBits knows. A phi met again on the
/// walk adds nothing: at run time it holds a value that came into the cycle from outside.
unsigned significantBits(const llvm::Value *value, const llvm::DataLayout &layout,
                         std::set<const llvm::Value *> &walking) {
  unsigned width = value->getType()->getIntegerBitWidth();
  if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
    return constant->getValue().getActiveBits();
  if (const auto *extended = llvm::dyn_cast<llvm::ZExtInst>(value))
    return extended->getSrcTy()->getIntegerBitWidth();
  if (llvm::isa<llvm::PHINode, llvm::SelectInst>(value) && walking.size() < 64) {
    if (!walking.insert(value).second)
      return 0;
    const auto *merge = llvm::cast<llvm::Instruction>(value);
    unsigned bits = 0;
    auto incoming = llvm::isa<llvm::PHINode>(merge) ? merge->operands()
                                                     : llvm::drop_begin(merge->operands());
    for (const llvm::Use &operand : incoming)
      bits = std::max(bits, significantBits(operand.get(), layout, walking));
    return bits;
  }
  return width - llvm::computeKnownBits(value, layout).countMinLeadingZeros();
}

/// The values `selector` can take at `at`: LazyValueInfo's range, narrowed by the range of a
/// `trunc` that dominates `at`, which is what a bounds check on the narrow register compared:
/// a `trunc %x` wide enough for MASK where the selector is `and %x, MASK` (MASK a run of low
/// ones), or a `trunc` of the selector itself where its bits above the truncation are known
/// zero (significantBits: zlib's `inflate` checks `cmp $0x1e, %eax` and indexes the table
/// with RAX, a phi of zero-extended values).
llvm::ConstantRange selectorRange(llvm::Value *selector, llvm::Instruction *at,
                                  llvm::LazyValueInfo &values, llvm::DominatorTree &dominators) {
  using namespace llvm::PatternMatch;
  llvm::ConstantRange range = values.getConstantRange(selector, at, /*UndefAllowed=*/false);
  unsigned width = selector->getType()->getIntegerBitWidth();
  llvm::Value *wide = selector;
  std::set<const llvm::Value *> walking;
  llvm::APInt mask = llvm::APInt::getLowBitsSet(
      width, significantBits(selector, at->getDataLayout(), walking));
  if (const llvm::APInt *andMask = nullptr;
      match(selector, m_And(m_Value(wide), m_APInt(andMask))) && andMask->isMask())
    mask = *andMask;
  else if (wide = selector; mask.isAllOnes())
    return range;
  for (llvm::User *user : wide->users()) {
    auto *narrow = llvm::dyn_cast<llvm::TruncInst>(user);
    if (!narrow || narrow->getType()->getIntegerBitWidth() < mask.getActiveBits() ||
        !dominators.dominates(narrow, at))
      continue;
    llvm::ConstantRange bits = values.getConstantRange(narrow, at, /*UndefAllowed=*/false)
                                   .zeroExtend(width)
                                   .binaryAnd(llvm::ConstantRange(mask));
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
