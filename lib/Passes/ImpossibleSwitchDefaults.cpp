#include "Passes/ImpossibleSwitchDefaults.h"

#include <llvm/Analysis/LazyValueInfo.h>
#include <llvm/ADT/STLFunctionalExtras.h>
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

/// What the checked truncations of `value` bound it to: for `and %x, MASK` (MASK a run of low
/// ones) a `trunc %x` wide enough for MASK, else a `trunc` of `value` itself where its bits
/// above the truncation are known zero (significantBits: zlib's `inflate` checks
/// `cmp $0x1e, %eax` and indexes the table with RAX, a phi of zero-extended values). Only a
/// truncation `usable` accepts counts, with the range `rangeOf` gives it.
llvm::ConstantRange
truncationBound(llvm::Value *value, const llvm::DataLayout &layout,
                llvm::function_ref<bool(const llvm::Instruction &)> usable,
                llvm::function_ref<llvm::ConstantRange(llvm::Value *)> rangeOf) {
  using namespace llvm::PatternMatch;
  unsigned width = value->getType()->getIntegerBitWidth();
  llvm::ConstantRange range = llvm::ConstantRange::getFull(width);
  llvm::Value *wide = value;
  std::set<const llvm::Value *> walking;
  llvm::APInt mask = llvm::APInt::getLowBitsSet(width, significantBits(value, layout, walking));
  if (const llvm::APInt *andMask = nullptr;
      match(value, m_And(m_Value(wide), m_APInt(andMask))) && andMask->isMask())
    mask = *andMask;
  else if (wide = value; mask.isAllOnes())
    return range;
  for (llvm::User *user : wide->users()) {
    auto *narrow = llvm::dyn_cast<llvm::TruncInst>(user);
    if (!narrow || narrow->getType()->getIntegerBitWidth() < mask.getActiveBits() ||
        !usable(*narrow))
      continue;
    range = range.intersectWith(
        rangeOf(narrow).zeroExtend(width).binaryAnd(llvm::ConstantRange(mask)));
  }
  return range;
}

/// The values the selector of `switchInst` can take: LazyValueInfo's range, narrowed by the
/// checked truncations (truncationBound) that dominate the switch, and for a phi in the
/// switch's block by those of each incoming value on its edge (make's `parse_var_assignment`
/// checks `trunc %c to i8` before the edge that brings %c to the switch, whose other edge
/// brings 0).
llvm::ConstantRange selectorRange(llvm::SwitchInst &switchInst, llvm::LazyValueInfo &values,
                                  llvm::DominatorTree &dominators) {
  llvm::Value *selector = switchInst.getCondition();
  llvm::BasicBlock *block = switchInst.getParent();
  const llvm::DataLayout &layout = block->getDataLayout();
  llvm::ConstantRange range = values.getConstantRange(selector, &switchInst, /*UndefAllowed=*/false);
  range = range.intersectWith(truncationBound(
      selector, layout,
      [&](const llvm::Instruction &narrow) { return dominators.dominates(&narrow, &switchInst); },
      [&](llvm::Value *narrow) {
        return values.getConstantRange(narrow, &switchInst, /*UndefAllowed=*/false);
      }));
  // A `trunc` of a value another, wider `trunc` of which was checked: the narrow one is the
  // wide one's low bits (zstd's option printer checks `cmp $0x66, %ebx` after `sub $0x64`, and
  // InstCombine switches on the byte of RBX).
  llvm::Value *source = selector;
  if (auto *narrowed = llvm::dyn_cast<llvm::TruncInst>(selector)) {
    source = narrowed->getOperand(0);
    unsigned width = selector->getType()->getIntegerBitWidth();
    for (llvm::User *user : source->users())
      if (auto *wider = llvm::dyn_cast<llvm::TruncInst>(user);
          wider && wider != narrowed && wider->getType()->getIntegerBitWidth() > width &&
          dominators.dominates(wider, &switchInst))
        range = range.intersectWith(
            values.getConstantRange(wider, &switchInst, /*UndefAllowed=*/false).truncate(width));
  }
  // A phi, or a `trunc` of one (ls's `movzbl %dil, %eax` index, a byte checked on each edge).
  auto *phi = llvm::dyn_cast<llvm::PHINode>(source);
  if (!phi || phi->getParent() != block)
    return range;
  unsigned width = range.getBitWidth();
  llvm::ConstantRange incoming = llvm::ConstantRange::getEmpty(width);
  for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
    llvm::Value *value = phi->getIncomingValue(i);
    llvm::BasicBlock *from = phi->getIncomingBlock(i);
    auto onEdge = [&](llvm::Value *of) {
      return values.getConstantRangeOnEdge(of, from, block, &switchInst);
    };
    auto availableOnEdge = [&](const llvm::Instruction &narrow) {
      return dominators.dominates(&narrow, from->getTerminator());
    };
    llvm::ConstantRange bound =
        onEdge(value).intersectWith(truncationBound(value, layout, availableOnEdge, onEdge));
    if (source != selector) {
      bound = bound.truncate(width);
      // The same truncation computed where it was checked (`cmp $0x7a, %dil` on this edge),
      // or the narrow value this one extends (`movzbl`, checked before it was extended).
      for (llvm::User *user : value->users())
        if (auto *narrow = llvm::dyn_cast<llvm::TruncInst>(user);
            narrow && narrow->getType() == selector->getType() && availableOnEdge(*narrow))
          bound = bound.intersectWith(onEdge(narrow));
      if (auto *extended = llvm::dyn_cast<llvm::ZExtInst>(value);
          extended && extended->getSrcTy() == selector->getType())
        bound = bound.intersectWith(onEdge(extended->getOperand(0)));
    }
    incoming = incoming.unionWith(bound);
  }
  return range.intersectWith(incoming);
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
  // Cases outside the selector's range: where InstCombine made the index `and %x, 7` for a
  // table of 7 behind `cmp $6, %r8d; ja`, SimplifyCFG turned the table's default (its
  // __hoist_jmp) into the case for 7 (make's do_variable_definition).
  llvm::SmallVector<std::pair<llvm::SwitchInst *, llvm::ConstantInt *>, 8> deadCases;
  {
    auto &values = analyses.getResult<llvm::LazyValueAnalysis>(function);
    auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
    for (llvm::BasicBlock &block : function) {
      auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(block.getTerminator());
      if (!switchInst || switchInst->getNumCases() == 0)
        continue;
      llvm::ConstantRange range = selectorRange(*switchInst, values, dominators);
      if (range.isEmptySet())
        continue;
      for (auto &switchCase : switchInst->cases())
        if (!range.contains(switchCase.getCaseValue()->getValue()))
          deadCases.emplace_back(switchInst, switchCase.getCaseValue());
      if (!llvm::isa<llvm::UnreachableInst>(switchInst->getDefaultDest()->getFirstNonPHIOrDbg()) &&
          casesCover(*switchInst, range))
        impossible.push_back(switchInst);
    }
  }
  for (auto [switchInst, value] : deadCases) {
    auto switchCase = switchInst->findCaseValue(value);
    switchCase->getCaseSuccessor()->removePredecessor(switchInst->getParent());
    switchInst->removeCase(switchCase);
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
  return impossible.empty() && deadCases.empty() ? llvm::PreservedAnalyses::all()
                                                 : llvm::PreservedAnalyses::none();
}

} // namespace hoist
