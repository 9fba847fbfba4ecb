#include "Deobf/Concolic/AbstractValue.h"

#include <llvm/IR/ConstantFold.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

namespace hoist {
namespace {

constexpr unsigned MaxDepth = 12;

AbstractValue symbolic(bool touchesStack, uint64_t constantPart) {
  AbstractValue result;
  result.touchesStack = touchesStack;
  result.constantPart = constantPart;
  return result;
}

/// The constant addend an operand contributes to a symbolic sum.
uint64_t addendOf(const AbstractValue &value) {
  return value.isConstant() ? value.value : value.isSymbolic() ? value.constantPart : 0;
}

AbstractValue classifyAt(llvm::Value *value, llvm::Value *entryStack, unsigned depth) {
  if (value == entryStack)
    return AbstractValue::stack(0);
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
    if (constant->getBitWidth() <= 64)
      return AbstractValue::constant(constant->getZExtValue());
  auto *op = llvm::dyn_cast<llvm::BinaryOperator>(value);
  if (!op || depth >= MaxDepth || !op->getType()->isIntegerTy(64))
    return symbolic(false, 0);
  AbstractValue lhs = classifyAt(op->getOperand(0), entryStack, depth + 1);
  AbstractValue rhs = classifyAt(op->getOperand(1), entryStack, depth + 1);
  bool touches = lhs.isStack() || rhs.isStack() || lhs.touchesStack || rhs.touchesStack;
  switch (op->getOpcode()) {
  case llvm::Instruction::Add:
    if (lhs.isConstant() && rhs.isConstant())
      return AbstractValue::constant(lhs.value + rhs.value);
    if (lhs.isStack() && rhs.isConstant())
      return AbstractValue::stack(lhs.offset() + static_cast<int64_t>(rhs.value));
    if (lhs.isConstant() && rhs.isStack())
      return AbstractValue::stack(rhs.offset() + static_cast<int64_t>(lhs.value));
    return symbolic(touches, addendOf(lhs) + addendOf(rhs));
  case llvm::Instruction::Sub:
    if (lhs.isConstant() && rhs.isConstant())
      return AbstractValue::constant(lhs.value - rhs.value);
    if (lhs.isStack() && rhs.isConstant())
      return AbstractValue::stack(lhs.offset() - static_cast<int64_t>(rhs.value));
    if (lhs.isStack() && rhs.isStack())
      return AbstractValue::constant(static_cast<uint64_t>(lhs.offset() - rhs.offset()));
    return symbolic(touches, addendOf(lhs) - addendOf(rhs));
  case llvm::Instruction::And: {
    if (lhs.isConstant() && rhs.isConstant())
      return AbstractValue::constant(lhs.value & rhs.value);
    // `and rsp, -16`: at entry RSP is 8 modulo 16, so masks of up to 16 bytes are known.
    const AbstractValue &stack = lhs.isStack() ? lhs : rhs;
    const AbstractValue &mask = lhs.isStack() ? rhs : lhs;
    if (stack.isStack() && mask.isConstant()) {
      int64_t m = static_cast<int64_t>(mask.value);
      if (m < 0 && m >= -16 && (static_cast<uint64_t>(-m) & static_cast<uint64_t>(-m - 1)) == 0)
        return AbstractValue::stack(((stack.offset() + 8) & m) - 8);
    }
    return symbolic(touches, 0);
  }
  default:
    if (lhs.isConstant() && rhs.isConstant())
      if (auto *folded = llvm::dyn_cast_or_null<llvm::ConstantInt>(llvm::ConstantFoldBinaryInstruction(
              op->getOpcode(), llvm::ConstantInt::get(op->getType(), lhs.value),
              llvm::ConstantInt::get(op->getType(), rhs.value))))
        return AbstractValue::constant(folded->getZExtValue());
    return symbolic(touches, 0);
  }
}

} // namespace

AbstractValue classify(llvm::Value *value, llvm::Value *entryStack) {
  return classifyAt(value, entryStack, 0);
}

llvm::Value *materialize(llvm::IRBuilderBase &ir, const AbstractValue &value, llvm::Type *type,
                         llvm::Value *entryStack) {
  assert(!value.isImportSlot() && !value.isEntryRegister() &&
         "the lifter materializes these (ConcolicLifter::materializeKnown)");
  if (value.isConstant())
    return llvm::ConstantInt::get(type, value.value);
  if (value.offset() == 0)
    return entryStack;
  return ir.CreateAdd(entryStack, ir.getInt64(value.value));
}

} // namespace hoist
