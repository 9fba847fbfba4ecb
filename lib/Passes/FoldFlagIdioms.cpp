// FoldFlagIdioms: the flag formulas a `cmp`/`sub`/`dec` leaves behind become the comparison the
// source made.
//
// lib/Arch/Flags.cpp builds, for r = a - b, SF as `r <s 0` and OF as the sign of
// (a ^ b) & (a ^ r) (SDM vol. 1, 3.4.3.1). `jl` reads SF != OF, `jge` SF == OF, and InstCombine
// rewrites these into shapes such as `((r ^ a) & (b ^ a) ^ r) <s 0`, which it never turns
// back into `a <s b`. ZF | CF and !CF & !ZF it does fold (`icmp ule/ugt`), and ZF | (SF != OF)
// or !ZF & (SF == OF) it folds too once SF != OF is an `icmp slt`: so this pass only needs the
// sign-bit formulas (and ZF as `a == b`).
//
// A formula is recognized by its meaning, not its shape: xor, and, or, not, select, sign tests
// and `icmp eq/ne` of booleans all act on the sign bits of their operands bit by bit, so the
// sign bit of any such tree over a, b and r is a boolean function of the three sign bits,
// an 8-entry truth table. The tree means `a <s b` exactly when that table is SF ^ OF.
#include "Passes/Passes.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Local.h>

#include <optional>

namespace hoist {
namespace {

using namespace llvm::PatternMatch;
using Table = uint8_t;

// Entry i of a table is the function's value when a's sign is bit 0 of i, b's bit 1, r's bit 2.
constexpr Table SignOfA = 0xAA, SignOfB = 0xCC, SignOfResult = 0xF0;
constexpr Table Overflow = (SignOfA ^ SignOfB) & (SignOfA ^ SignOfResult);
constexpr Table Less = SignOfResult ^ Overflow;   // SF != OF

constexpr unsigned MaxDepth = 12;       ///< operands followed down from a candidate root
constexpr unsigned MaxNodes = 64;       ///< values looked at per candidate (a DAG, not a tree)
constexpr unsigned MaxUserDepth = 6;    ///< users followed up from a subtraction

/// r = a - b, as the lifter builds it (`sub a, b`) or as InstCombine leaves it (`add a, -b`).
struct Subtraction {
  llvm::Instruction *result;
  llvm::Value *lhs;
  llvm::Value *rhs;
  std::optional<llvm::APInt> constantRhs;
};

std::optional<Subtraction> matchSubtraction(llvm::Instruction &inst) {
  auto *type = llvm::dyn_cast<llvm::IntegerType>(inst.getType());
  if (!type || type->getBitWidth() < 2)
    return std::nullopt;
  llvm::Value *lhs, *rhs;
  if (match(&inst, m_Sub(m_Value(lhs), m_Value(rhs)))) {
    std::optional<llvm::APInt> constant;
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(rhs))
      constant = c->getValue();
    return Subtraction{&inst, lhs, rhs, constant};
  }
  const llvm::APInt *addend;
  // a + C is a - (-C), except for C = INT_MIN, whose negation is itself: an `add a, INT_MIN`
  // sets OF differently from `sub a, INT_MIN`.
  if (match(&inst, m_Add(m_Value(lhs), m_APInt(addend))) && !addend->isZero() &&
      !addend->isMinSignedValue()) {
    llvm::APInt negated = -*addend;
    return Subtraction{&inst, lhs, llvm::ConstantInt::get(type, negated), negated};
  }
  return std::nullopt;
}

/// The sign-bit truth table of values built from one subtraction's a, b and r.
class SignTables {
public:
  explicit SignTables(const Subtraction &sub) : sub_(sub) {}

  /// Starts the node budget afresh for the next candidate.
  void resetBudget() { nodesLeft_ = MaxNodes; }

  /// Entries of a table that can occur: all of them, or those with b's actual sign.
  Table possible() const {
    if (!sub_.constantRhs)
      return 0xFF;
    return sub_.constantRhs->isNegative() ? SignOfB : Table(~SignOfB);
  }

  /// The table of the sign bit of an integer of r's width, or nothing.
  std::optional<Table> ofInteger(llvm::Value *value, unsigned depth) {
    if (value->getType() != sub_.result->getType() || depth > MaxDepth || !spend())
      return std::nullopt;
    if (value == sub_.lhs)
      return SignOfA;
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
      return constant->isNegative() ? Table(0xFF) : Table(0);
    if (value == sub_.rhs)
      return SignOfB;
    if (isResult(value))
      return SignOfResult;
    if (isNotResult(value))
      return Table(~SignOfResult);
    llvm::Value *x, *y;
    if (match(value, m_Xor(m_Value(x), m_Value(y))))
      return combine(ofInteger(x, depth + 1), ofInteger(y, depth + 1), llvm::Instruction::Xor);
    if (match(value, m_And(m_Value(x), m_Value(y))))
      return combine(ofInteger(x, depth + 1), ofInteger(y, depth + 1), llvm::Instruction::And);
    if (match(value, m_Or(m_Value(x), m_Value(y))))
      return combine(ofInteger(x, depth + 1), ofInteger(y, depth + 1), llvm::Instruction::Or);
    return std::nullopt;
  }

  /// The table of an i1, or nothing.
  std::optional<Table> ofBoolean(llvm::Value *value, unsigned depth) {
    if (!value->getType()->isIntegerTy(1) || depth > MaxDepth || !spend())
      return std::nullopt;
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
      return constant->isOne() ? Table(0xFF) : Table(0);
    llvm::Value *x, *y, *z;
    if (match(value, m_SpecificICmp(llvm::ICmpInst::ICMP_SLT, m_Value(x), m_Zero())))
      return ofInteger(x, depth + 1);
    if (match(value, m_SpecificICmp(llvm::ICmpInst::ICMP_SGT, m_Value(x), m_AllOnes())))
      return invert(ofInteger(x, depth + 1));
    if (match(value, m_SpecificICmp(llvm::ICmpInst::ICMP_NE, m_Value(x), m_Value(y))) &&
        x->getType()->isIntegerTy(1))
      return combine(ofBoolean(x, depth + 1), ofBoolean(y, depth + 1), llvm::Instruction::Xor);
    if (match(value, m_SpecificICmp(llvm::ICmpInst::ICMP_EQ, m_Value(x), m_Value(y))) &&
        x->getType()->isIntegerTy(1))
      return invert(
          combine(ofBoolean(x, depth + 1), ofBoolean(y, depth + 1), llvm::Instruction::Xor));
    if (match(value, m_Xor(m_Value(x), m_Value(y))))
      return combine(ofBoolean(x, depth + 1), ofBoolean(y, depth + 1), llvm::Instruction::Xor);
    if (match(value, m_And(m_Value(x), m_Value(y))) ||
        match(value, m_LogicalAnd(m_Value(x), m_Value(y))))
      return combine(ofBoolean(x, depth + 1), ofBoolean(y, depth + 1), llvm::Instruction::And);
    if (match(value, m_Or(m_Value(x), m_Value(y))) ||
        match(value, m_LogicalOr(m_Value(x), m_Value(y))))
      return combine(ofBoolean(x, depth + 1), ofBoolean(y, depth + 1), llvm::Instruction::Or);
    if (match(value, m_Select(m_Value(x), m_Value(y), m_Value(z)))) {
      std::optional<Table> c = ofBoolean(x, depth + 1), t = ofBoolean(y, depth + 1),
                           f = ofBoolean(z, depth + 1);
      if (!c || !t || !f)
        return std::nullopt;
      return Table((*c & *t) | (~*c & *f));
    }
    return std::nullopt;
  }

  /// True when `table` and `wanted` agree on every entry that can occur.
  bool means(std::optional<Table> table, Table wanted) const {
    return table && ((*table ^ wanted) & possible()) == 0;
  }

private:
  /// Another instance of r: the same subtraction not yet merged by CSE.
  bool isResult(llvm::Value *value) const {
    if (value == sub_.result)
      return true;
    auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
    if (!inst)
      return false;
    std::optional<Subtraction> other = matchSubtraction(*inst);
    return other && other->lhs == sub_.lhs &&
           (other->rhs == sub_.rhs ||
            (other->constantRhs && sub_.constantRhs && *other->constantRhs == *sub_.constantRhs));
  }

  /// ~r, which InstCombine writes as `(b - 1) - a` when b is a constant.
  bool isNotResult(llvm::Value *value) const {
    llvm::Value *x;
    if (match(value, m_Not(m_Value(x))) && isResult(x))
      return true;
    const llvm::APInt *c;
    return sub_.constantRhs && match(value, m_Sub(m_APInt(c), m_Specific(sub_.lhs))) &&
           *c == *sub_.constantRhs - 1;
  }

  static std::optional<Table> invert(std::optional<Table> table) {
    if (!table)
      return std::nullopt;
    return Table(~*table);
  }

  static std::optional<Table> combine(std::optional<Table> x, std::optional<Table> y,
                                      unsigned opcode) {
    if (!x || !y)
      return std::nullopt;
    switch (opcode) {
    case llvm::Instruction::Xor:
      return Table(*x ^ *y);
    case llvm::Instruction::And:
      return Table(*x & *y);
    default:
      return Table(*x | *y);
    }
  }

  bool spend() {
    if (nodesLeft_ == 0)
      return false;
    --nodesLeft_;
    return true;
  }

  const Subtraction &sub_;
  unsigned nodesLeft_ = MaxNodes;
};

enum class Meaning { Less, GreaterOrEqual, Overflow, NoOverflow, Equal, NotEqual };

struct Rewrite {
  llvm::Instruction *root;
  Meaning meaning;
  Subtraction sub;
};

/// What `inst` means in terms of `sub`, if it is one of the idioms.
std::optional<Meaning> classify(llvm::Instruction &inst, const Subtraction &sub,
                                SignTables &tables) {
  llvm::Value *x;
  if (inst.getType()->isIntegerTy(1)) {
    // ZF: r == 0 is a == b.
    if (match(&inst, m_SpecificICmp(llvm::ICmpInst::ICMP_EQ, m_Specific(sub.result), m_Zero())))
      return Meaning::Equal;
    if (match(&inst, m_SpecificICmp(llvm::ICmpInst::ICMP_NE, m_Specific(sub.result), m_Zero())))
      return Meaning::NotEqual;
    tables.resetBudget();
    std::optional<Table> table = tables.ofBoolean(&inst, 0);
    if (tables.means(table, Less))
      return Meaning::Less;
    if (tables.means(table, Table(~Less)))
      return Meaning::GreaterOrEqual;
    if (tables.means(table, Overflow))
      return Meaning::Overflow;
    if (tables.means(table, Table(~Overflow)))
      return Meaning::NoOverflow;
    return std::nullopt;
  }
  // `setl` after InstCombine: the sign bit of the formula shifted down to bit 0.
  unsigned width = inst.getType()->getScalarSizeInBits();
  if (inst.getType() != sub.result->getType() ||
      !match(&inst, m_LShr(m_Value(x), m_SpecificInt(width - 1))))
    return std::nullopt;
  tables.resetBudget();
  if (tables.means(tables.ofInteger(x, 1), Less))
    return Meaning::Less;
  return std::nullopt;
}

llvm::Value *buildMeaning(llvm::IRBuilder<> &ir, Meaning meaning, const Subtraction &sub) {
  switch (meaning) {
  case Meaning::Less:
    return ir.CreateICmpSLT(sub.lhs, sub.rhs, "lt");
  case Meaning::GreaterOrEqual:
    return ir.CreateICmpSGE(sub.lhs, sub.rhs, "ge");
  case Meaning::Equal:
    return ir.CreateICmpEQ(sub.lhs, sub.rhs, "eq");
  case Meaning::NotEqual:
    return ir.CreateICmpNE(sub.lhs, sub.rhs, "ne");
  case Meaning::Overflow:
  case Meaning::NoOverflow: {
    llvm::Value *pair = ir.CreateBinaryIntrinsic(llvm::Intrinsic::ssub_with_overflow, sub.lhs,
                                                 sub.rhs);
    llvm::Value *overflow = ir.CreateExtractValue(pair, 1, "of");
    return meaning == Meaning::Overflow ? overflow : ir.CreateNot(overflow, "no");
  }
  }
  return nullptr;
}

/// Instructions that use `start` directly or through at most MaxUserDepth others.
void collectUsers(llvm::Instruction *start, llvm::SmallPtrSetImpl<llvm::Instruction *> &seen,
                  llvm::SmallVectorImpl<llvm::Instruction *> &found) {
  llvm::SmallVector<std::pair<llvm::Instruction *, unsigned>, 16> work{{start, 0}};
  while (!work.empty()) {
    auto [inst, depth] = work.pop_back_val();
    if (depth == MaxUserDepth)
      continue;
    for (llvm::User *user : inst->users()) {
      auto *userInst = llvm::dyn_cast<llvm::Instruction>(user);
      if (!userInst || llvm::isa<llvm::PHINode>(userInst) || !seen.insert(userInst).second)
        continue;
      found.push_back(userInst);
      work.push_back({userInst, depth + 1});
    }
  }
}

/// `xor (icmp a, b), true` is the inverse comparison: `setg` next to `setle` reads
/// !(ZF | (SF != OF)), and InstCombine keeps the xor when the compare has other users.
bool invertNegatedCompares(llvm::Function &function) {
  std::vector<std::pair<llvm::Instruction *, llvm::ICmpInst *>> negations;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    llvm::Value *compare;
    if (inst.getType()->isIntegerTy(1) && match(&inst, m_Not(m_Value(compare))))
      if (auto *icmp = llvm::dyn_cast<llvm::ICmpInst>(compare))
        negations.push_back({&inst, icmp});
  }
  for (auto [negation, compare] : negations) {
    auto *inverse = new llvm::ICmpInst(negation->getIterator(), compare->getInversePredicate(),
                                       compare->getOperand(0), compare->getOperand(1));
    inverse->takeName(negation);
    inverse->copyMetadata(*negation);
    negation->replaceAllUsesWith(inverse);
    negation->eraseFromParent();
  }
  return !negations.empty();
}

} // namespace

llvm::PreservedAnalyses FoldFlagIdiomsPass::run(llvm::Function &function,
                                                llvm::FunctionAnalysisManager &) {
  std::vector<Rewrite> rewrites;
  llvm::SmallPtrSet<llvm::Instruction *, 32> rewritten;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    std::optional<Subtraction> sub = matchSubtraction(inst);
    if (!sub)
      continue;
    // The formula reaches r through its users, or ~r through a's (`(b - 1) - a`).
    llvm::SmallPtrSet<llvm::Instruction *, 32> seen;
    llvm::SmallVector<llvm::Instruction *, 32> candidates;
    collectUsers(&inst, seen, candidates);
    if (sub->constantRhs)
      if (auto *lhs = llvm::dyn_cast<llvm::Instruction>(sub->lhs))
        for (llvm::User *user : lhs->users())
          if (auto *notResult = llvm::dyn_cast<llvm::Instruction>(user);
              notResult && notResult != &inst && match(notResult, m_Sub(m_Constant(), m_Value())))
            collectUsers(notResult, seen, candidates);
    SignTables tables(*sub);
    for (llvm::Instruction *candidate : candidates)
      if (!rewritten.contains(candidate))
        if (std::optional<Meaning> meaning = classify(*candidate, *sub, tables)) {
          rewrites.push_back({candidate, *meaning, *sub});
          rewritten.insert(candidate);
        }
  }
  if (rewrites.empty())
    return preservedAfter(invertNegatedCompares(function));

  llvm::SmallVector<llvm::WeakTrackingVH, 16> replaced;
  for (const Rewrite &rewrite : rewrites) {
    llvm::IRBuilder<> ir(rewrite.root);
    llvm::Value *value = buildMeaning(ir, rewrite.meaning, rewrite.sub);
    if (value->getType() != rewrite.root->getType())
      value = ir.CreateZExt(value, rewrite.root->getType());
    if (llvm::MDNode *pc = rewrite.root->getMetadata("hoist.pc"))
      if (auto *valueInst = llvm::dyn_cast<llvm::Instruction>(value))
        valueInst->setMetadata("hoist.pc", pc);
    rewrite.root->replaceAllUsesWith(value);
    replaced.push_back(rewrite.root);
  }
  llvm::RecursivelyDeleteTriviallyDeadInstructionsPermissive(replaced);
  invertNegatedCompares(function);
  return preservedAfter(true);
}

} // namespace hoist
