// Expression DAGs: collected by a depth-first walk from the roots, evaluated in topological
// order with every value held as the low bits of a uint64_t.
#include "Deobf/Passes/Expression.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <bit>

namespace hoist::deobf {
namespace {

bool isSmallInteger(const llvm::Value *value) {
  auto *type = llvm::dyn_cast<llvm::IntegerType>(value->getType());
  return type && type->getBitWidth() <= 64;
}

/// Nodes of a Condition DAG may be up to 128 bits wide (the lifter's 64x64 multiplications
/// are i128): they are evaluated modulo 2^64, exact for what a truncation to 64 bits or less
/// keeps, and Z3 sees their full width.
bool fitsNode(const llvm::Value *value, ExpressionKind kind) {
  auto *type = llvm::dyn_cast<llvm::IntegerType>(value->getType());
  return type && type->getBitWidth() <= (kind == ExpressionKind::Condition ? 128u : 64u);
}

/// Kinds that look into compares, right shifts and extensions.
bool seesComparisons(ExpressionKind kind) {
  return kind == ExpressionKind::Condition || kind == ExpressionKind::Comparisons;
}

/// The low 64 bits of `value`.
uint64_t low64(const llvm::APInt &value) {
  return value.getBitWidth() > 64 ? value.trunc(64).getZExtValue() : value.getZExtValue();
}

} // namespace

bool isNode(const llvm::Value *value, ExpressionKind kind) {
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || !fitsNode(instruction, kind))
    return false;
  switch (instruction->getOpcode()) {
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub:
  case llvm::Instruction::Mul:
  case llvm::Instruction::And:
  case llvm::Instruction::Or:
  case llvm::Instruction::Xor:
    return true;
  case llvm::Instruction::Shl:
    return llvm::isa<llvm::ConstantInt>(instruction->getOperand(1));
  case llvm::Instruction::LShr:
  case llvm::Instruction::AShr:
    return seesComparisons(kind) && llvm::isa<llvm::ConstantInt>(instruction->getOperand(1));
  case llvm::Instruction::Trunc:
    return fitsNode(instruction->getOperand(0), kind);
  case llvm::Instruction::ZExt:
  case llvm::Instruction::SExt:
    return kind != ExpressionKind::Mba && fitsNode(instruction->getOperand(0), kind);
  case llvm::Instruction::ICmp:
    return seesComparisons(kind) && fitsNode(instruction->getOperand(0), kind);
  case llvm::Instruction::Select: {
    if (kind == ExpressionKind::Comparisons)
      return true;
    // `select (trunc x to i1), a, b`: InstCombine's form of a + (x & 1) * (b - a), which MBA
    // with constants turns into. Only on a bit of a value as wide as the result, so that the
    // leaves stay at least as wide as the roots.
    auto *bit = llvm::dyn_cast<llvm::TruncInst>(instruction->getOperand(0));
    return bit && bit->getType()->isIntegerTy(1) && isSmallInteger(bit->getOperand(0)) &&
           bit->getOperand(0)->getType()->getIntegerBitWidth() >=
               instruction->getType()->getIntegerBitWidth();
  }
  default:
    return false;
  }
}

bool isArithmeticNode(const llvm::Instruction *node) {
  switch (node->getOpcode()) {
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub:
  case llvm::Instruction::Mul:
  case llvm::Instruction::Shl: return true;
  case llvm::Instruction::Or: return llvm::cast<llvm::PossiblyDisjointInst>(node)->isDisjoint();
  default: return false;
  }
}

bool isBitwiseNode(const llvm::Instruction *node) {
  switch (node->getOpcode()) {
  case llvm::Instruction::And:
  case llvm::Instruction::Xor: return true;
  case llvm::Instruction::Or: return !llvm::cast<llvm::PossiblyDisjointInst>(node)->isDisjoint();
  default: return false;
  }
}

std::optional<Expression> Expression::collect(llvm::ArrayRef<llvm::Value *> roots,
                                              ExpressionKind kind, unsigned maxNodes,
                                              unsigned maxLeaves,
                                              llvm::ArrayRef<llvm::Value *> forcedLeaves) {
  Expression expression;
  // Iterative post-order walk: (value, operands pushed?)
  std::vector<std::pair<llvm::Value *, bool>> stack;
  for (llvm::Value *root : roots) {
    if (!isSmallInteger(root))
      return std::nullopt;
    expression.roots_.push_back(root);
  }
  for (size_t i = roots.size(); i-- > 0;)
    stack.push_back({roots[i], false});
  while (!stack.empty()) {
    auto [value, expanded] = stack.back();
    stack.pop_back();
    if (expression.nodeIndex_.count(value) || expression.leafIndex_.count(value))
      continue;
    if (llvm::isa<llvm::ConstantInt>(value))
      continue;
    if (!isNode(value, kind) || llvm::is_contained(forcedLeaves, value)) {
      if (!isSmallInteger(value) || expression.leaves_.size() == maxLeaves)
        return std::nullopt;
      expression.leafIndex_[value] = expression.leaves_.size();
      expression.leaves_.push_back(value);
      continue;
    }
    auto *instruction = llvm::cast<llvm::Instruction>(value);
    if (expanded) {
      if (expression.nodes_.size() == maxNodes)
        return std::nullopt;
      expression.nodeIndex_[value] = expression.nodes_.size();
      expression.nodes_.push_back(instruction);
      continue;
    }
    stack.push_back({value, true});
    // Reversed, so that leaves are numbered in the order the operands name them.
    for (unsigned i = instruction->getNumOperands(); i-- > 0;)
      stack.push_back({instruction->getOperand(i), false});
  }
  return expression;
}

uint64_t Expression::valueOf(llvm::Value *value, const std::vector<uint64_t> &nodeValues,
                             llvm::ArrayRef<uint64_t> leafValues) const {
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
    return low64(constant->getValue());   // all of it, but in a Condition DAG's wide nodes
  if (auto found = nodeIndex_.find(value); found != nodeIndex_.end())
    return nodeValues[found->second];
  unsigned index = leafIndex_.lookup(value);
  return leafValues[index] & widthMask(value->getType()->getIntegerBitWidth());
}

std::vector<uint64_t> Expression::evaluate(llvm::ArrayRef<uint64_t> leafValues) const {
  std::vector<uint64_t> values(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    llvm::Instruction *node = nodes_[i];
    unsigned width = node->getType()->getIntegerBitWidth();
    uint64_t a = valueOf(node->getOperand(0), values, leafValues);
    uint64_t b = node->getNumOperands() > 1 ? valueOf(node->getOperand(1), values, leafValues) : 0;
    uint64_t result = 0;
    switch (node->getOpcode()) {
    case llvm::Instruction::Add: result = a + b; break;
    case llvm::Instruction::Sub: result = a - b; break;
    case llvm::Instruction::Mul: result = a * b; break;
    case llvm::Instruction::And: result = a & b; break;
    case llvm::Instruction::Or: result = isArithmeticNode(node) ? a + b : a | b; break;
    case llvm::Instruction::Xor: result = a ^ b; break;
    case llvm::Instruction::Shl: result = b >= std::min(width, 64u) ? 0 : a << b; break;
    case llvm::Instruction::LShr: result = b >= std::min(width, 64u) ? 0 : a >> b; break;
    case llvm::Instruction::AShr:
      result = low64(llvm::APInt(width, a).ashr(std::min<uint64_t>(b, width - 1)));
      break;
    case llvm::Instruction::ICmp: {
      unsigned operandWidth = node->getOperand(0)->getType()->getIntegerBitWidth();
      result = llvm::ICmpInst::compare(llvm::APInt(operandWidth, a), llvm::APInt(operandWidth, b),
                                       llvm::cast<llvm::ICmpInst>(node)->getPredicate());
      break;
    }
    case llvm::Instruction::Select:
      result = a & 1 ? b : valueOf(node->getOperand(2), values, leafValues);
      break;
    case llvm::Instruction::Trunc:
    case llvm::Instruction::ZExt: result = a; break;
    case llvm::Instruction::SExt: {
      unsigned from = node->getOperand(0)->getType()->getIntegerBitWidth();
      result = from < 64 && (a >> (from - 1)) & 1 ? a | ~widthMask(from) : a;
      break;
    }
    default: break;
    }
    values[i] = result & widthMask(width);
  }
  std::vector<uint64_t> results;
  for (llvm::Value *root : roots_)
    results.push_back(valueOf(root, values, leafValues));
  return results;
}

void Expression::assumeKnownBits(const llvm::DataLayout &layout) {
  knownZero_.clear();
  knownOne_.clear();
  for (llvm::Value *leaf : leaves_) {
    llvm::KnownBits known = llvm::computeKnownBits(leaf, layout);
    knownZero_.push_back(known.Zero.getZExtValue());
    knownOne_.push_back(known.One.getZExtValue());
  }
}

unsigned Expression::unknownBits() const {
  unsigned bits = 0;
  for (unsigned i = 0; i < leaves_.size(); ++i) {
    uint64_t width = widthMask(leaves_[i]->getType()->getIntegerBitWidth());
    bits += std::popcount(width & ~(knownZero(i) | knownOne(i)));
  }
  return bits;
}

unsigned Expression::exclusiveNodes() const {
  // Users come after their operands in nodes_, so walking backwards from the root settles
  // each node's users before the node.
  llvm::DenseMap<llvm::Value *, bool> exclusive;
  unsigned count = 0;
  for (auto node = nodes_.rbegin(); node != nodes_.rend(); ++node) {
    bool only = *node == roots_.front();
    if (!only) {
      only = !(*node)->use_empty();
      for (llvm::User *user : (*node)->users())
        only = only && exclusive.lookup(user);
    }
    exclusive[*node] = only;
    count += only;
  }
  return count;
}

std::vector<llvm::Value *> Expression::arithmeticUnderBitwise() const {
  auto isArithmetic = [&](llvm::Value *value) {
    auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
    return instruction && nodeIndex_.count(value) && isArithmeticNode(instruction);
  };
  // A sum shifted or complemented before a bitwise operator sees it (`(s << 3) & -16`,
  // InstCombine's 8*s; `~s << 2`) is the sum itself: the shifts and complements stay nodes,
  // so that s is one leaf wherever it appears.
  auto unshifted = [&](llvm::Value *value) {
    llvm::Value *inner = value;
    for (auto *wrapper = llvm::dyn_cast<llvm::Instruction>(inner);
         wrapper && nodeIndex_.count(wrapper) &&
         (wrapper->getOpcode() == llvm::Instruction::Shl ||   // by a constant, as a node
          (wrapper->getOpcode() == llvm::Instruction::Xor &&
           llvm::isa<llvm::ConstantInt>(wrapper->getOperand(1)) &&
           llvm::cast<llvm::ConstantInt>(wrapper->getOperand(1))->isMinusOne()));
         wrapper = llvm::dyn_cast<llvm::Instruction>(inner))
      inner = wrapper->getOperand(0);
    return isArithmetic(inner) ? inner : value;
  };
  std::vector<llvm::Value *> found;
  auto add = [&](llvm::Value *operand) {
    operand = unshifted(operand);
    if (isArithmetic(operand) && !llvm::is_contained(found, operand))
      found.push_back(operand);
  };
  for (llvm::Instruction *node : nodes_) {
    if (isBitwiseNode(node)) {
      for (llvm::Value *operand : node->operands())
        add(operand);
    } else if (llvm::isa<llvm::SelectInst>(node)) {
      // `select (trunc s to i1)`: the low bit of s, a bitwise use of it.
      add(llvm::cast<llvm::TruncInst>(node->getOperand(0))->getOperand(0));
    }
  }
  return found;
}

bool Expression::mixesArithmeticAndBitwise() const {
  bool arithmetic = false, bitwise = false;
  for (llvm::Instruction *node : nodes_) {
    arithmetic |= isArithmeticNode(node);
    bitwise |= isBitwiseNode(node);
  }
  return arithmetic && bitwise;
}

} // namespace hoist::deobf
