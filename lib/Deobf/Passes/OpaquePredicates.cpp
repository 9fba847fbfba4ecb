// Opaque predicates: conditions of branches and selects that always have the same value.
//
// Rules, cheapest first, on a condition `icmp eq/ne A, B` (or its negation, or `trunc X to i1`):
//  1. Low bits. add, sub, mul, and, or, xor, shl, trunc, zext and sext compute the low k bits
//     of their result from the low k bits of their operands alone. So the low k bits of A - B
//     are a function of the leaves' low k bits, and trying every combination (k*leaves <= 12)
//     decides them exactly: if A - B is never 0 modulo 2^k, A != B for every input. This is
//     what x*(x+1) being even (k = 1) and 7y^2 - 1 never being a square (k = 3) come down to.
//     When A and B have no bits above k (known bits: a mask, a zext of a bit), the low bits
//     are the whole values and equality is decided exactly too.
//  2. Ranges: LLVM's constant ranges of A and B decide any icmp predicate when they do not
//     overlap in the way the predicate asks.
//  3. Z3 (when built with it): A == B, or A != B, proved for all leaf values within a budget.
// The branch then goes to the side always taken; the other edge is removed (its block is
// deleted by SimplifyCFG once unreachable). Selects on such conditions become the operand
// always chosen.
#include "Deobf/Passes/DeobfPasses.h"
#include "Deobf/Passes/Expression.h"
#include "Deobf/Passes/ProofCache.h"
#include "Deobf/Passes/Prover.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/KnownBits.h>
#include <llvm/Transforms/Utils/Local.h>

namespace hoist {
namespace {

using deobf::Expression;
using deobf::ExpressionKind;

constexpr unsigned MaxNodes = 64;
constexpr unsigned MaxLowBitsLeaves = 4;
constexpr unsigned MaxProofLeaves = 6;
constexpr unsigned EnumerationBits = 12;   ///< k * leaves: at most 4096 combinations
constexpr unsigned ProofsPerFunction = 16;

/// Every combination of the leaves' low `bits` bits, `visit`ed in turn until it returns false.
template <typename Visit>
void forEachLowBits(const Expression &expression, unsigned bits, Visit visit) {
  size_t leaves = expression.leaves().size();
  uint64_t combinations = 1ull << (bits * leaves);
  std::vector<uint64_t> values(leaves);
  for (uint64_t index = 0; index < combinations; ++index) {
    for (size_t i = 0; i < leaves; ++i)
      values[i] = (index >> (i * bits)) & deobf::widthMask(bits);
    if (!visit(expression.evaluate(values)))
      return;
  }
}

/// Rule 1 on `A == B`.
std::optional<bool> equalityByLowBits(llvm::Value *a, llvm::Value *b,
                                      const llvm::DataLayout &layout) {
  std::optional<Expression> expression =
      Expression::collect({a, b}, ExpressionKind::LowBits, MaxNodes, MaxLowBitsLeaves);
  if (!expression || expression->leaves().empty())
    return std::nullopt;
  unsigned width = a->getType()->getIntegerBitWidth();
  unsigned bits = std::min<unsigned>(width, EnumerationBits / expression->leaves().size());
  uint64_t low = deobf::widthMask(bits);
  bool everEqualLow = false;
  forEachLowBits(*expression, bits, [&](const std::vector<uint64_t> &values) {
    everEqualLow = ((values[0] - values[1]) & low) == 0;
    return !everEqualLow;
  });
  if (!everEqualLow)
    return false;
  // Exact when both sides fit in the enumerated bits.
  auto fits = [&](llvm::Value *value) {
    return llvm::computeKnownBits(value, layout).countMinLeadingZeros() >= width - bits;
  };
  if (!fits(a) || !fits(b))
    return std::nullopt;
  bool allEqual = true, noneEqual = true;
  forEachLowBits(*expression, bits, [&](const std::vector<uint64_t> &values) {
    (values[0] == values[1] ? noneEqual : allEqual) = false;
    return allEqual || noneEqual;
  });
  if (allEqual)
    return true;
  if (noneEqual)
    return false;
  return std::nullopt;
}

/// Rule 2 on `A pred B`.
std::optional<bool> compareByRanges(llvm::CmpInst::Predicate predicate, llvm::Value *a,
                                    llvm::Value *b) {
  bool isSigned = llvm::CmpInst::isSigned(predicate);
  llvm::ConstantRange left = llvm::computeConstantRange(a, isSigned);
  llvm::ConstantRange right = llvm::computeConstantRange(b, isSigned);
  if (left.icmp(predicate, right))
    return true;
  if (left.icmp(llvm::CmpInst::getInversePredicate(predicate), right))
    return false;
  return std::nullopt;
}

/// Rule 3 on `A == B`.
std::optional<bool> equalityByProof(llvm::Value *a, llvm::Value *b, unsigned &proofsLeft) {
  if (!deobf::haveZ3() || proofsLeft == 0)
    return std::nullopt;
  std::optional<Expression> expression =
      Expression::collect({a, b}, ExpressionKind::LowBits, MaxNodes, MaxProofLeaves);
  if (!expression || expression->leaves().empty())
    return std::nullopt;
  --proofsLeft;
  auto never = [](const Expression &e) {
    return deobf::proveNeverEqual(e, deobf::PassProofBackstopMs, deobf::PassProofResourceLimit);
  };
  if (deobf::cachedProof(*expression, 'n', never) == deobf::Verdict::Proved)
    return false;
  auto always = [](const Expression &e) {
    return deobf::proveEqual(e, deobf::PassProofBackstopMs, deobf::PassProofResourceLimit);
  };
  if (deobf::cachedProof(*expression, 'e', always) == deobf::Verdict::Proved)
    return true;
  return std::nullopt;
}

class ConditionDecider {
public:
  ConditionDecider(const llvm::DataLayout &layout, unsigned &proofsLeft)
      : layout_(layout), proofsLeft_(proofsLeft) {}

  std::optional<bool> decide(llvm::Value *condition, unsigned depth = 0) {
    using namespace llvm::PatternMatch;
    llvm::Value *inner = nullptr;
    if (llvm::isa<llvm::Constant>(condition) || depth > 4)
      return std::nullopt;   // constants are SimplifyCFG's
    if (match(condition, m_Not(m_Value(inner)))) {
      std::optional<bool> value = decide(inner, depth + 1);
      return value ? std::optional<bool>(!*value) : std::nullopt;
    }
    if (auto *trunc = llvm::dyn_cast<llvm::TruncInst>(condition))
      return bitZero(trunc);
    auto *compare = llvm::dyn_cast<llvm::ICmpInst>(condition);
    if (!compare || !compare->getOperand(0)->getType()->isIntegerTy() ||
        compare->getOperand(0)->getType()->getIntegerBitWidth() > 64)
      return std::nullopt;
    llvm::Value *a = compare->getOperand(0), *b = compare->getOperand(1);
    if (compare->isEquality()) {
      std::optional<bool> equal = equalityByLowBits(a, b, layout_);
      if (!equal)
        equal = compareByRanges(llvm::CmpInst::ICMP_EQ, a, b);
      if (!equal)
        equal = equalityByProof(a, b, proofsLeft_);
      if (!equal)
        return std::nullopt;
      return compare->getPredicate() == llvm::CmpInst::ICMP_EQ ? *equal : !*equal;
    }
    return compareByRanges(compare->getPredicate(), a, b);
  }

private:
  /// `trunc X to i1` is X's bit 0: exact from the leaves' bit 0.
  std::optional<bool> bitZero(llvm::TruncInst *trunc) {
    std::optional<Expression> expression =
        Expression::collect({trunc}, ExpressionKind::LowBits, MaxNodes, EnumerationBits);
    if (!expression || expression->leaves().empty())
      return std::nullopt;
    std::optional<uint64_t> seen;
    bool constant = true;
    forEachLowBits(*expression, 1, [&](const std::vector<uint64_t> &values) {
      if (seen && *seen != values[0])
        constant = false;
      seen = values[0];
      return constant;
    });
    return constant && seen ? std::optional<bool>(*seen != 0) : std::nullopt;
  }

  const llvm::DataLayout &layout_;
  unsigned &proofsLeft_;
};

} // namespace

llvm::PreservedAnalyses FoldOpaquePredicatesPass::run(llvm::Function &function,
                                                      llvm::FunctionAnalysisManager &) {
  unsigned proofsLeft = ProofsPerFunction;
  ConditionDecider decider(function.getParent()->getDataLayout(), proofsLeft);
  DeobfuscationCounts counts;
  bool cfgChanged = false;
  for (llvm::BasicBlock &block : function) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
    if (!branch || !branch->isConditional())
      continue;
    std::optional<bool> taken = decider.decide(branch->getCondition());
    if (!taken)
      continue;
    llvm::BasicBlock *kept = branch->getSuccessor(*taken ? 0 : 1);
    llvm::BasicBlock *dropped = branch->getSuccessor(*taken ? 1 : 0);
    llvm::Value *condition = branch->getCondition();
    if (dropped != kept)
      dropped->removePredecessor(&block);
    llvm::BranchInst::Create(kept, branch);
    branch->eraseFromParent();
    llvm::RecursivelyDeleteTriviallyDeadInstructions(condition);
    ++counts.branchesFolded;
    cfgChanged = true;
  }
  // Handles: deleting a select's dead condition may delete another select.
  std::vector<llvm::WeakVH> selects;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction))
      if (select->getCondition()->getType()->isIntegerTy(1))
        selects.emplace_back(select);
  for (llvm::WeakVH &handle : selects) {
    auto *select = llvm::dyn_cast_or_null<llvm::SelectInst>(handle.operator llvm::Value *());
    if (!select)
      continue;
    std::optional<bool> chosen = decider.decide(select->getCondition());
    if (!chosen)
      continue;
    select->replaceAllUsesWith(*chosen ? select->getTrueValue() : select->getFalseValue());
    llvm::RecursivelyDeleteTriviallyDeadInstructions(select);
    ++counts.branchesFolded;
  }
  if (!counts.branchesFolded)
    return llvm::PreservedAnalyses::all();
  if (stats_)
    stats_->add(function.getName().str(), counts);
  if (cfgChanged)
    return llvm::PreservedAnalyses::none();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace hoist
