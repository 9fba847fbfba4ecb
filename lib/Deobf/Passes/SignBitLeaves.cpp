// Each leaf `lshr/ashr x, c` becomes, where its users read only bits at or above k = w-1-c
// (every bit there a copy of x's sign, and bits above k zero for lshr): b << k or (0 - b) << k,
// b the sign bit `lshr x, w-1`. Its users then see the same bits, so every value the DAG
// computes is unchanged.
#include "Deobf/Passes/SignBitLeaves.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

namespace hoist::deobf {
namespace {

using namespace llvm::PatternMatch;

/// Whether every user of `shift` is an and whose constant mask clears the bits below k.
bool usersReadFrom(const llvm::Instruction *shift, unsigned k) {
  if (k == 0)
    return true;
  for (const llvm::User *user : shift->users()) {
    const llvm::APInt *mask;
    if (!match(user, m_And(m_Specific(shift), m_APInt(mask))) || mask->countr_zero() < k)
      return false;
  }
  return true;
}

/// A `lshr x, w-1` that dominates `at`, else null.
llvm::Instruction *dominatingSignBit(llvm::Value *x, const llvm::Instruction *at,
                                     const llvm::DominatorTree &dominators) {
  unsigned width = x->getType()->getIntegerBitWidth();
  for (llvm::User *user : x->users())
    if (auto *shift = llvm::dyn_cast<llvm::Instruction>(user);
        shift && match(shift, m_LShr(m_Specific(x), m_SpecificInt(width - 1))) &&
        dominators.dominates(shift, at))
      return shift;
  return nullptr;
}

} // namespace

bool SignBitLeaves::expose(const Expression &expression, const llvm::DominatorTree &dominators) {
  for (llvm::Value *leaf : expression.leaves()) {
    auto *shift = llvm::dyn_cast<llvm::BinaryOperator>(leaf);
    const llvm::APInt *amount;
    llvm::Value *x;
    bool arithmetic = shift && match(shift, m_AShr(m_Value(x), m_APInt(amount)));
    if (!shift || !(arithmetic || match(shift, m_LShr(m_Value(x), m_APInt(amount)))))
      continue;
    unsigned width = shift->getType()->getIntegerBitWidth();
    // `lshr x, w-1` is the sign bit itself, already a leaf of one bit.
    if (amount->uge(width) || (!arithmetic && amount->getZExtValue() == width - 1) ||
        shift->use_empty())
      continue;
    unsigned k = width - 1 - unsigned(amount->getZExtValue());
    if (!usersReadFrom(shift, k))
      continue;
    Rewrite rewrite{shift, nullptr, {}};
    llvm::IRBuilder<> builder(shift->getNextNode());
    llvm::Value *bit = dominatingSignBit(x, shift, dominators);
    if (!bit) {
      bit = builder.CreateLShr(x, width - 1);
      rewrite.created.emplace_back(bit);
    }
    llvm::Value *value = bit;
    if (arithmetic) {
      value = builder.CreateNeg(value);
      rewrite.created.emplace_back(value);
    }
    if (k) {
      value = builder.CreateShl(value, k);
      rewrite.created.emplace_back(value);
    }
    shift->replaceAllUsesWith(value);
    rewrite.replacement = value;
    rewrites_.push_back(std::move(rewrite));
  }
  return !rewrites_.empty();
}

void SignBitLeaves::commit() {
  for (Rewrite &rewrite : rewrites_)
    if (rewrite.shift->use_empty())
      rewrite.shift->eraseFromParent();
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
