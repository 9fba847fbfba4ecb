#include "Deobf/Concolic/LocalSimplifier.h"

#include <llvm/ADT/Hashing.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

namespace hoist {
namespace {

bool isPure(const llvm::Instruction &instruction) {
  return !llvm::isa<llvm::PHINode>(instruction) && !instruction.isTerminator() &&
         !instruction.mayReadOrWriteMemory() && !instruction.mayHaveSideEffects();
}

unsigned hashOf(const llvm::Instruction &instruction) {
  llvm::hash_code code = llvm::hash_combine(instruction.getOpcode(), instruction.getType());
  for (const llvm::Use &operand : instruction.operands())
    code = llvm::hash_combine(code, operand.get());
  if (auto *compare = llvm::dyn_cast<llvm::CmpInst>(&instruction))
    code = llvm::hash_combine(code, compare->getPredicate());
  return static_cast<unsigned>(code);
}

/// Where lane `lane` of a shuffle's result comes from, through nested shuffles: a constant
/// element, or (vector, lane) of a value that is not a shuffle.
struct LaneSource {
  llvm::Value *vector = nullptr;
  int lane = -1;
  llvm::Constant *constant = nullptr;
};

LaneSource laneSource(llvm::Value *value, int lane, unsigned depth) {
  auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(value);
  if (!shuffle || depth == 0) {
    if (auto *constant = llvm::dyn_cast<llvm::Constant>(value))
      return {nullptr, -1, constant->getAggregateElement(static_cast<unsigned>(lane))};
    return {value, lane, nullptr};
  }
  int source = shuffle->getMaskValue(static_cast<unsigned>(lane));
  if (source < 0)
    return {};
  int width = static_cast<int>(
      llvm::cast<llvm::FixedVectorType>(shuffle->getOperand(0)->getType())->getNumElements());
  llvm::Value *from = shuffle->getOperand(source < width ? 0 : 1);
  return laneSource(from, source < width ? source : source - width, depth - 1);
}

/// A shuffle whose lanes all come from constants, or are one vector's lanes in order.
llvm::Value *simplifyShuffle(llvm::ShuffleVectorInst &shuffle) {
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(shuffle.getType());
  if (!type)
    return nullptr;
  std::vector<llvm::Constant *> constants;
  llvm::Value *whole = nullptr;
  bool allConstant = true, identity = true;
  for (unsigned lane = 0; lane < type->getNumElements(); ++lane) {
    LaneSource source = laneSource(&shuffle, static_cast<int>(lane), 4);
    allConstant = allConstant && source.constant;
    if (source.constant)
      constants.push_back(source.constant);
    identity = identity && source.vector && source.lane == static_cast<int>(lane) &&
               (!whole || whole == source.vector);
    if (source.vector)
      whole = source.vector;
  }
  if (allConstant)
    return llvm::ConstantVector::get(constants);
  if (identity && whole && whole->getType() == type)
    return whole;
  return nullptr;
}

/// Constant folding and the identities that make `xor r, r`, `sub r, r` and `pxor x, x`
/// zero. Deliberately local: LLVM's InstSimplify would look through the lifter's placeholder
/// phis, which have no operands yet, and take them for poison.
llvm::Value *simplify(llvm::Instruction &instruction, const llvm::DataLayout &layout) {
  if (llvm::Constant *folded = llvm::ConstantFoldInstruction(&instruction, layout))
    return folded;
  if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
    llvm::Value *lhs = op->getOperand(0), *rhs = op->getOperand(1);
    llvm::Constant *zero = llvm::Constant::getNullValue(op->getType());
    auto isZero = [](llvm::Value *v) {
      auto *c = llvm::dyn_cast<llvm::Constant>(v);
      return c && c->isNullValue();
    };
    switch (op->getOpcode()) {
    case llvm::Instruction::Xor:
    case llvm::Instruction::Sub:
      if (lhs == rhs)
        return zero;
      if (isZero(rhs))
        return lhs;
      if (op->getOpcode() == llvm::Instruction::Xor && isZero(lhs))
        return rhs;
      break;
    case llvm::Instruction::And:
      if (lhs == rhs)
        return lhs;
      if (isZero(lhs) || isZero(rhs))
        return zero;
      break;
    case llvm::Instruction::Or:
      if (lhs == rhs)
        return lhs;
      if (isZero(rhs))
        return lhs;
      if (isZero(lhs))
        return rhs;
      break;
    case llvm::Instruction::Add:
      if (isZero(rhs))
        return lhs;
      if (isZero(lhs))
        return rhs;
      break;
    case llvm::Instruction::Shl:
    case llvm::Instruction::LShr:
    case llvm::Instruction::AShr:
      if (isZero(rhs))
        return lhs;
      break;
    default:
      break;
    }
    return nullptr;
  }
  if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
    // trunc (zext x) of x's own width; bitcast of a bitcast back to the original type.
    if (auto *inner = llvm::dyn_cast<llvm::CastInst>(cast->getOperand(0)))
      if (inner->getOperand(0)->getType() == cast->getType() &&
          ((cast->getOpcode() == llvm::Instruction::Trunc &&
            (inner->getOpcode() == llvm::Instruction::ZExt ||
             inner->getOpcode() == llvm::Instruction::SExt)) ||
           (cast->getOpcode() == llvm::Instruction::BitCast &&
            inner->getOpcode() == llvm::Instruction::BitCast)))
        return inner->getOperand(0);
    return nullptr;
  }
  if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(&instruction)) {
    if (compare->getOperand(0) == compare->getOperand(1))
      return llvm::ConstantInt::getBool(compare->getType(), compare->isTrueWhenEqual());
    return nullptr;
  }
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
    if (auto *condition = llvm::dyn_cast<llvm::ConstantInt>(select->getCondition()))
      return condition->isOne() ? select->getTrueValue() : select->getFalseValue();
    if (select->getTrueValue() == select->getFalseValue())
      return select->getTrueValue();
    return nullptr;
  }
  if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&instruction))
    return simplifyShuffle(*shuffle);
  return nullptr;
}

} // namespace

llvm::Constant *constantLanes(llvm::Value *value) {
  if (auto *constant = llvm::dyn_cast<llvm::Constant>(value))
    return constant;
  if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(value))
    return llvm::dyn_cast_or_null<llvm::Constant>(simplifyShuffle(*shuffle));
  return nullptr;
}

void LocalSimplifier::run(llvm::BasicBlock *bb, llvm::Instruction *after,
                          llvm::function_ref<void(llvm::Value *, llvm::Value *)> replaced) {
  if (bb != block_) {
    block_ = bb;
    available_.clear();
  }
  auto it = after ? std::next(after->getIterator()) : bb->begin();
  for (; it != bb->end(); ++it) {
    llvm::Instruction &instruction = *it;
    if (!isPure(instruction))
      continue;
    if (llvm::Value *simpler = simplify(instruction, layout_)) {
      instruction.replaceAllUsesWith(simpler);
      replaced(&instruction, simpler);
      continue;
    }
    std::vector<llvm::Instruction *> &same = available_[hashOf(instruction)];
    llvm::Instruction *earlier = nullptr;
    for (llvm::Instruction *candidate : same)
      if (candidate->isIdenticalTo(&instruction)) {
        earlier = candidate;
        break;
      }
    if (earlier) {
      instruction.replaceAllUsesWith(earlier);
      replaced(&instruction, earlier);
    } else
      same.push_back(&instruction);
  }
}

} // namespace hoist
