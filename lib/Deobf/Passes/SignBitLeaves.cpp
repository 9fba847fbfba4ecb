// A leaf `lshr/ashr x, a` whose users read only bits from k up (ands with masks clearing the
// bits below) is, on those bits, another leaf `lshr x, b` shifted left by b - a when
// a < b <= a + k (both shift in zeros); or, when every bit read is a copy of x's sign
// (a + k >= w - 1), the sign bit s = `lshr x, w-1` shifted left by w-1-a, negated for ashr.
// Its users then see the same bits, so every value the DAG computes is unchanged.
#include "Deobf/Passes/SignBitLeaves.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Local.h>

namespace hoist::deobf {
namespace {

constexpr unsigned MaxWidenDepth = 4;   ///< operators zext is pushed through

using namespace llvm::PatternMatch;

/// Where a value of `base` can replace `shift`: after `shift` when base dominates it, after
/// `base` when that dominates every user of `shift`; null otherwise.
llvm::Instruction *placeFor(llvm::Instruction *base, llvm::Instruction *shift,
                            const llvm::DominatorTree &dominators) {
  if (dominators.dominates(base, shift))
    return shift->getNextNode();
  for (llvm::User *user : shift->users())
    if (!dominators.dominates(base, llvm::cast<llvm::Instruction>(user)))
      return nullptr;
  return base->getNextNode();
}

/// `lshr x, b` among `candidates` with b in [low, high] that can replace `shift`, the largest
/// b first; with the place for it.
std::pair<llvm::Instruction *, llvm::Instruction *>
findRightShift(llvm::Value *x, unsigned low, unsigned high, llvm::ArrayRef<llvm::Value *> candidates,
               llvm::Instruction *shift, const llvm::DominatorTree &dominators) {
  std::pair<llvm::Instruction *, llvm::Instruction *> best{nullptr, nullptr};
  uint64_t bestAmount = 0;
  for (llvm::Value *candidate : candidates) {
    const llvm::APInt *amount;
    auto *base = llvm::dyn_cast<llvm::Instruction>(candidate);
    if (!base || base == shift || !match(base, m_LShr(m_Specific(x), m_APInt(amount))) ||
        amount->ult(low) || amount->ugt(high) || amount->getZExtValue() < bestAmount)
      continue;
    if (llvm::Instruction *place = placeFor(base, shift, dominators)) {
      best = {base, place};
      bestAmount = amount->getZExtValue();
    }
  }
  return best;
}

} // namespace

using namespace llvm::PatternMatch;

unsigned lowestBitRead(const llvm::Instruction *shift) {
  unsigned lowest = shift->getType()->getIntegerBitWidth();
  for (const llvm::User *user : shift->users()) {
    const llvm::APInt *mask;
    if (!match(user, m_And(m_Specific(shift), m_APInt(mask))))
      return 0;
    lowest = std::min(lowest, mask->countr_zero());
  }
  return lowest;
}

/// `narrow` computed in the wide type from `wideSource` = zext `source`, when zext
/// distributes over each operator down to `source` and constants: and, or, xor always; add,
/// sub, mul and shl when they do not wrap unsigned. Null otherwise (what was built is in
/// `created`, to delete).
static llvm::Value *widen(llvm::Value *narrow, llvm::Value *source, llvm::Value *wideSource,
                          llvm::IRBuilder<> &builder, std::vector<llvm::WeakVH> &created,
                          unsigned depth) {
  if (narrow == source)
    return wideSource;
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(narrow))
    return llvm::ConstantInt::get(wideSource->getType(),
                                  constant->getValue().zext(wideSource->getType()->getIntegerBitWidth()));
  auto *operation = llvm::dyn_cast<llvm::BinaryOperator>(narrow);
  if (!operation || depth == 0)
    return nullptr;
  switch (operation->getOpcode()) {
  case llvm::Instruction::And:
  case llvm::Instruction::Or:
  case llvm::Instruction::Xor: break;
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub:
  case llvm::Instruction::Mul:
  case llvm::Instruction::Shl:
    if (!operation->hasNoUnsignedWrap())
      return nullptr;
    break;
  default: return nullptr;
  }
  llvm::Value *left = widen(operation->getOperand(0), source, wideSource, builder, created, depth - 1);
  llvm::Value *right =
      left ? widen(operation->getOperand(1), source, wideSource, builder, created, depth - 1) : nullptr;
  if (!right)
    return nullptr;
  llvm::Value *wide = builder.CreateBinOp(operation->getOpcode(), left, right);
  created.emplace_back(wide);
  return wide;
}

bool SignBitLeaves::exposeWidened(const Expression &expression, llvm::ZExtInst *extended,
                                  const llvm::DominatorTree &dominators) {
  // Another leaf `zext x` of the same type, x an instruction or argument that the
  // extended value is computed from.
  for (llvm::Value *candidate : expression.leaves()) {
    auto *base = llvm::dyn_cast<llvm::ZExtInst>(candidate);
    if (!base || base == extended || base->getType() != extended->getType() ||
        base->getOperand(0) == extended->getOperand(0) || !dominators.dominates(base, extended))
      continue;
    Rewrite rewrite{extended, nullptr, {}};
    llvm::IRBuilder<> builder(extended->getNextNode());
    llvm::Value *wide = widen(extended->getOperand(0), base->getOperand(0), base, builder,
                              rewrite.created, MaxWidenDepth);
    if (!wide) {
      for (auto created = rewrite.created.rbegin(); created != rewrite.created.rend(); ++created)
        if (auto *instruction = llvm::dyn_cast_or_null<llvm::Instruction>(created->operator llvm::Value *()))
          instruction->eraseFromParent();
      continue;
    }
    extended->replaceAllUsesWith(wide);
    rewrite.replacement = wide;
    rewrites_.push_back(std::move(rewrite));
    return true;
  }
  return false;
}

bool SignBitLeaves::exposeExtended(const Expression &expression, llvm::ZExtInst *extended,
                                   const llvm::DominatorTree &dominators) {
  llvm::Value *x;
  const llvm::APInt *amount, *mask = nullptr;
  llvm::Value *inner = extended->getOperand(0);
  if (!match(inner, m_And(m_LShr(m_Value(x), m_APInt(amount)), m_APInt(mask))) &&
      !match(inner, m_LShr(m_Value(x), m_APInt(amount))))
    return false;
  unsigned a = unsigned(amount->getZExtValue());
  unsigned lowest = lowestBitRead(extended);
  if (mask)
    lowest = std::max(lowest, mask->countr_zero());
  // Another leaf `zext (lshr x, b)`, a < b <= a + lowest, the largest b.
  llvm::Instruction *base = nullptr, *place = nullptr;
  unsigned b = 0;
  for (llvm::Value *candidate : expression.leaves()) {
    auto *other = llvm::dyn_cast<llvm::ZExtInst>(candidate);
    const llvm::APInt *otherAmount;
    if (!other || other == extended || other->getType() != extended->getType() ||
        !match(other->getOperand(0), m_LShr(m_Specific(x), m_APInt(otherAmount))) ||
        otherAmount->ule(a) || otherAmount->ugt(a + lowest) || otherAmount->getZExtValue() <= b)
      continue;
    if (llvm::Instruction *at = placeFor(other, extended, dominators)) {
      base = other, place = at;
      b = unsigned(otherAmount->getZExtValue());
    }
  }
  if (!base)
    return false;
  Rewrite rewrite{extended, nullptr, {}};
  llvm::IRBuilder<> builder(place);
  llvm::Value *value = builder.CreateShl(base, b - a);
  rewrite.created.emplace_back(value);
  if (mask) {
    value = builder.CreateAnd(value, mask->zext(extended->getType()->getIntegerBitWidth()));
    rewrite.created.emplace_back(value);
  }
  extended->replaceAllUsesWith(value);
  rewrite.replacement = value;
  rewrites_.push_back(std::move(rewrite));
  return true;
}

bool SignBitLeaves::expose(const Expression &expression, const llvm::DominatorTree &dominators) {
  for (llvm::Value *leaf : expression.leaves()) {
    if (auto *extended = llvm::dyn_cast<llvm::ZExtInst>(leaf)) {
      if (!exposeExtended(expression, extended, dominators))
        exposeWidened(expression, extended, dominators);
      continue;
    }
    auto *shift = llvm::dyn_cast<llvm::BinaryOperator>(leaf);
    const llvm::APInt *amountValue;
    llvm::Value *x;
    bool arithmetic = shift && match(shift, m_AShr(m_Value(x), m_APInt(amountValue)));
    if (!shift || !(arithmetic || match(shift, m_LShr(m_Value(x), m_APInt(amountValue)))))
      continue;
    unsigned width = shift->getType()->getIntegerBitWidth();
    // `lshr x, w-1` is the sign bit itself, already a leaf of one bit.
    if (amountValue->uge(width) || (!arithmetic && amountValue->getZExtValue() == width - 1) ||
        shift->use_empty())
      continue;
    unsigned amount = unsigned(amountValue->getZExtValue());
    unsigned lowest = lowestBitRead(shift);
    Rewrite rewrite{shift, nullptr, {}};
    // Another leaf `lshr x, b` (a < b <= a + lowest): the bits read are its, shifted left.
    auto [base, place] =
        arithmetic ? std::pair<llvm::Instruction *, llvm::Instruction *>{nullptr, nullptr}
                   : findRightShift(x, amount + 1, amount + lowest, expression.leaves(), shift,
                                    dominators);
    if (!base) {
      // Else the sign bit, when every bit read is a copy of it.
      if (amount + lowest < width - 1)
        continue;
      std::vector<llvm::Value *> users(x->users().begin(), x->users().end());
      std::tie(base, place) = findRightShift(x, width - 1, width - 1, users, shift, dominators);
      if (!base) {
        place = shift->getNextNode();
        base = llvm::IRBuilder<>(place).Insert(llvm::BinaryOperator::CreateLShr(
            x, llvm::ConstantInt::get(x->getType(), width - 1)));
        rewrite.created.emplace_back(base);
      }
    }
    llvm::IRBuilder<> builder(place);
    llvm::Value *value = base;
    if (arithmetic) {
      value = builder.CreateNeg(value);
      rewrite.created.emplace_back(value);
    }
    unsigned baseAmount =
        unsigned(llvm::cast<llvm::ConstantInt>(base->getOperand(1))->getZExtValue());
    if (baseAmount > amount) {
      value = builder.CreateShl(value, baseAmount - amount);
      rewrite.created.emplace_back(value);
    }
    shift->replaceAllUsesWith(value);
    rewrite.replacement = value;
    rewrites_.push_back(std::move(rewrite));
  }
  return !rewrites_.empty();
}

void SignBitLeaves::commit() {
  // Handles: deleting one shift's operands may delete another rewritten shift.
  std::vector<llvm::WeakVH> shifts;
  for (Rewrite &rewrite : rewrites_)
    shifts.emplace_back(rewrite.shift);
  for (llvm::WeakVH &shift : shifts)
    if (auto *instruction = llvm::dyn_cast_or_null<llvm::Instruction>(shift.operator llvm::Value *());
        instruction && instruction->use_empty())
      llvm::RecursivelyDeleteTriviallyDeadInstructions(instruction);
  rewrites_.clear();
}

void SignBitLeaves::undo() {
  for (Rewrite &rewrite : rewrites_) {
    if (rewrite.replacement)
      rewrite.replacement->replaceAllUsesWith(rewrite.shift);
    for (auto created = rewrite.created.rbegin(); created != rewrite.created.rend(); ++created)
      if (auto *instruction = llvm::dyn_cast_or_null<llvm::Instruction>(created->operator llvm::Value *());
          instruction && instruction->use_empty())
        instruction->eraseFromParent();
  }
  rewrites_.clear();
}

} // namespace hoist::deobf
