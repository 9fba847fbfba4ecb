#include "Deobf/Concolic/PossibleTargets.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <set>

namespace hoist {
namespace {

constexpr unsigned MaxDepth = 16;

bool collect(llvm::Value *value, std::set<uint64_t> &out, unsigned limit, unsigned depth,
             llvm::SmallPtrSetImpl<llvm::Value *> &onPath) {
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value)) {
    if (constant->getBitWidth() > 64)
      return false;
    out.insert(constant->getZExtValue());
    return out.size() <= limit;
  }
  if (depth >= MaxDepth || !onPath.insert(value).second)
    return llvm::isa<llvm::PHINode>(value);   // a phi cycle adds nothing new
  bool ok = false;
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value)) {
    ok = collect(select->getTrueValue(), out, limit, depth + 1, onPath) &&
         collect(select->getFalseValue(), out, limit, depth + 1, onPath);
  } else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value)) {
    ok = true;
    for (llvm::Value *incoming : phi->incoming_values())
      ok = ok && collect(incoming, out, limit, depth + 1, onPath);
  } else if (auto *cast = llvm::dyn_cast<llvm::ZExtInst>(value)) {
    ok = collect(cast->getOperand(0), out, limit, depth + 1, onPath);
  } else if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(value);
             op && llvm::isa<llvm::ConstantInt>(op->getOperand(1)) &&
             op->getType()->getIntegerBitWidth() <= 64) {
    std::set<uint64_t> inner;
    ok = collect(op->getOperand(0), inner, limit, depth + 1, onPath);
    uint64_t rhs = llvm::cast<llvm::ConstantInt>(op->getOperand(1))->getZExtValue();
    unsigned bits = op->getType()->getIntegerBitWidth();
    uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    for (uint64_t lhs : inner) {
      switch (op->getOpcode()) {
      case llvm::Instruction::Add: out.insert((lhs + rhs) & mask); break;
      case llvm::Instruction::Sub: out.insert((lhs - rhs) & mask); break;
      case llvm::Instruction::Xor: out.insert((lhs ^ rhs) & mask); break;
      case llvm::Instruction::And: out.insert(lhs & rhs); break;
      case llvm::Instruction::Or: out.insert((lhs | rhs) & mask); break;
      default: ok = false; break;
      }
    }
    ok = ok && out.size() <= limit;
  }
  onPath.erase(value);
  return ok;
}

} // namespace

std::optional<std::vector<uint64_t>> possibleTargets(llvm::Value *value, unsigned limit) {
  std::set<uint64_t> values;
  llvm::SmallPtrSet<llvm::Value *, 16> onPath;
  if (llvm::isa<llvm::ConstantInt>(value) || !collect(value, values, limit, 0, onPath) ||
      values.empty())
    return std::nullopt;
  return std::vector<uint64_t>(values.begin(), values.end());
}

} // namespace hoist
