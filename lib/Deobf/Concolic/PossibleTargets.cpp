#include "Deobf/Concolic/PossibleTargets.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <set>

namespace hoist {
namespace {

constexpr unsigned MaxDepth = 16;

uint64_t lowMask(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

unsigned widthOf(const llvm::Value *value) {
  llvm::Type *type = value->getType();
  return type->isIntegerTy() ? type->getIntegerBitWidth() : 0;
}

/// Lists the values of an expression over constants, walking only its low `bits` bits where
/// the rest does not matter: a `setl dl` keeps rdx's upper bytes (`(rdx & ~0xff) | c`) that
/// a `movzx edx, dl` then drops.
class Collector {
public:
  explicit Collector(unsigned limit) : limit_(limit) {}

  /// Adds to `out` every value the low `bits` bits of `value` can take; false when that is
  /// not a few constants.
  bool collect(llvm::Value *value, unsigned bits, std::set<uint64_t> &out, unsigned depth,
               unsigned transforms) {
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value)) {
      if (constant->getBitWidth() > 64)
        return false;
      out.insert(constant->getZExtValue() & lowMask(bits));
      return out.size() <= limit_;
    }
    if (depth >= MaxDepth)
      return anyCondition(value, out);
    auto [entered, inserted] = onPath_.try_emplace(value, transforms);
    if (!inserted)
      // A cycle through phis and selects alone adds no value of its own; one through
      // arithmetic (a counter) takes values the walk cannot list.
      return (llvm::isa<llvm::PHINode>(value) && entered->second == transforms) ||
             anyCondition(value, out);
    bool ok = false;
    bool throughPhiBefore = throughPhi_;
    if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value)) {
      ok = collect(select->getTrueValue(), bits, out, depth + 1, transforms) &&
           collect(select->getFalseValue(), bits, out, depth + 1, transforms);
    } else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value)) {
      // A phi without incoming values yet (a block still being lifted) may take any.
      throughPhi_ = true;
      ok = phi->getNumIncomingValues() > 0 && llvm::all_of(phi->incoming_values(), [&](llvm::Value *incoming) {
        return collect(incoming, bits, out, depth + 1, transforms);
      });
    } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(value)) {
      ok = castValues(*cast, bits, out, depth, transforms + 1);
    } else if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(value)) {
      ok = binaryValues(*op, bits, out, depth, transforms + 1);
    } else if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(value)) {
      ok = compareValues(*compare, out, depth, transforms + 1);
    }
    onPath_.erase(value);
    if (ok)
      return true;
    throughPhi_ = throughPhiBefore;   // a condition taken as either value uses no phi's
    return anyCondition(value, out);
  }

  bool throughPhi() const { return throughPhi_; }

private:
  /// A condition whose values the walk cannot list (a flattened dispatcher's `setl` on
  /// data): either value.
  bool anyCondition(llvm::Value *value, std::set<uint64_t> &out) const {
    if (!value->getType()->isIntegerTy(1))
      return false;
    out.insert({0, 1});
    return out.size() <= limit_;
  }

  bool castValues(llvm::CastInst &cast, unsigned bits, std::set<uint64_t> &out, unsigned depth,
                  unsigned transforms) {
    bool sext = llvm::isa<llvm::SExtInst>(cast);
    if (!(sext || llvm::isa<llvm::ZExtInst>(cast) || llvm::isa<llvm::TruncInst>(cast)))
      return false;
    unsigned from = widthOf(cast.getOperand(0)), to = widthOf(&cast);
    if (from == 0 || to == 0 || to > 64)
      return false;
    // The low bits of a truncation or of an extension within the source are the source's.
    if (bits <= from)
      return collect(cast.getOperand(0), std::min(bits, from), out, depth + 1, transforms);
    std::set<uint64_t> inner;
    if (!collect(cast.getOperand(0), from, inner, depth + 1, transforms))
      return false;
    for (uint64_t operand : inner) {
      llvm::APInt wide(from, operand);
      out.insert((sext ? wide.sext(to) : wide.zext(to)).getZExtValue() & lowMask(bits));
    }
    return out.size() <= limit_;
  }

  /// Every pair of the operands' values combined; a value combined with itself (`x + x`, a
  /// `lea` doubling a `setl`) pairs each value with itself only. The low bits of a sum,
  /// product, bitwise operation or left shift depend on the operands' low bits alone.
  bool binaryValues(llvm::BinaryOperator &op, unsigned bits, std::set<uint64_t> &out,
                    unsigned depth, unsigned transforms) {
    unsigned width = widthOf(&op);
    if (width == 0 || width > 64)
      return false;
    unsigned opcode = op.getOpcode();
    uint64_t mask = lowMask(bits);
    if (opcode == llvm::Instruction::And)
      for (unsigned side = 0; side < 2; ++side)
        if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(op.getOperand(side));
            constant && (constant->getZExtValue() & mask) == 0) {
          out.insert(0);   // whatever the other operand is
          return out.size() <= limit_;
        }
    bool lowBitsSuffice = opcode == llvm::Instruction::Add || opcode == llvm::Instruction::Sub ||
                          opcode == llvm::Instruction::Mul || opcode == llvm::Instruction::Xor ||
                          opcode == llvm::Instruction::And || opcode == llvm::Instruction::Or;
    unsigned lhsBits = lowBitsSuffice || opcode == llvm::Instruction::Shl ? bits : width;
    unsigned rhsBits = lowBitsSuffice ? bits : width;
    std::set<uint64_t> lhs, rhs;
    if (!collect(op.getOperand(0), lhsBits, lhs, depth + 1, transforms))
      return false;
    bool same = op.getOperand(0) == op.getOperand(1) && lhsBits == rhsBits;
    if (!same && !collect(op.getOperand(1), rhsBits, rhs, depth + 1, transforms))
      return false;
    if (!same && lhs.size() * rhs.size() > limit_ * 4)
      return false;
    auto combine = [&](uint64_t a, uint64_t b) -> bool {
      switch (opcode) {
      case llvm::Instruction::Add: out.insert((a + b) & mask); return true;
      case llvm::Instruction::Sub: out.insert((a - b) & mask); return true;
      case llvm::Instruction::Mul: out.insert((a * b) & mask); return true;
      case llvm::Instruction::Xor: out.insert((a ^ b) & mask); return true;
      case llvm::Instruction::And: out.insert(a & b & mask); return true;
      case llvm::Instruction::Or: out.insert((a | b) & mask); return true;
      case llvm::Instruction::Shl:
        if (b >= width)
          return false;   // poison
        out.insert((a << b) & mask);
        return true;
      case llvm::Instruction::LShr:
        if (b >= width)
          return false;
        out.insert((a >> b) & mask);
        return true;
      default: return false;
      }
    };
    for (uint64_t a : lhs) {
      if (same) {
        if (!combine(a, a))
          return false;
        continue;
      }
      for (uint64_t b : rhs)
        if (!combine(a, b))
          return false;
    }
    return out.size() <= limit_;
  }

  /// The comparison of every pair of the operands' values (a dispatcher's range check of
  /// an index that is one of a few constants).
  bool compareValues(llvm::ICmpInst &compare, std::set<uint64_t> &out, unsigned depth,
                     unsigned transforms) {
    unsigned width = widthOf(compare.getOperand(0));
    if (width == 0 || width > 64)
      return false;
    std::set<uint64_t> lhs, rhs;
    if (!collect(compare.getOperand(0), width, lhs, depth + 1, transforms) ||
        !collect(compare.getOperand(1), width, rhs, depth + 1, transforms) ||
        lhs.size() * rhs.size() > limit_ * 4)
      return false;
    for (uint64_t a : lhs)
      for (uint64_t b : rhs)
        out.insert(llvm::ICmpInst::compare(llvm::APInt(width, a), llvm::APInt(width, b),
                                           compare.getPredicate()));
    return out.size() <= limit_;
  }

  unsigned limit_;
  bool throughPhi_ = false;
  /// The values being walked, with the count of arithmetic steps at their entry.
  llvm::DenseMap<llvm::Value *, unsigned> onPath_;
};

/// Conditions an expression may depend on for the exact evaluation, and its size.
constexpr unsigned MaxConditions = 4;
constexpr unsigned MaxConditionNodes = 48;

/// Collects the conditions (non-constant i1 values, whatever computes them) `value` is built
/// from by integer casts, arithmetic and selects over constants; false for any other leaf.
bool findConditions(llvm::Value *value, llvm::SmallVectorImpl<llvm::Value *> &conditions,
                    unsigned &nodes) {
  if (llvm::isa<llvm::ConstantInt>(value))
    return true;
  if (++nodes > MaxConditionNodes || widthOf(value) == 0 || widthOf(value) > 64)
    return false;
  if (value->getType()->isIntegerTy(1) && !llvm::isa<llvm::SelectInst>(value)) {
    if (!llvm::is_contained(conditions, value))
      conditions.push_back(value);
    return conditions.size() <= MaxConditions;
  }
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || !(llvm::isa<llvm::BinaryOperator>(instruction) ||
                        llvm::isa<llvm::SelectInst>(instruction) ||
                        llvm::isa<llvm::ZExtInst>(instruction) ||
                        llvm::isa<llvm::SExtInst>(instruction) ||
                        llvm::isa<llvm::TruncInst>(instruction)))
    return false;
  for (llvm::Value *operand : instruction->operands())
    if (!findConditions(operand, conditions, nodes))
      return false;
  return true;
}

/// `value` folded with each condition replaced by its bit of `assignment`.
llvm::Constant *evaluate(llvm::Value *value, llvm::ArrayRef<llvm::Value *> conditions,
                         unsigned assignment, const llvm::DataLayout &layout) {
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
    return constant;
  if (const auto *found = llvm::find(conditions, value); found != conditions.end())
    return llvm::ConstantInt::getBool(value->getContext(),
                                      (assignment >> (found - conditions.begin())) & 1);
  auto *instruction = llvm::cast<llvm::Instruction>(value);
  llvm::SmallVector<llvm::Constant *, 3> operands;
  for (llvm::Value *operand : instruction->operands()) {
    llvm::Constant *folded = evaluate(operand, conditions, assignment, layout);
    if (!folded)
      return nullptr;
    operands.push_back(folded);
  }
  return llvm::ConstantFoldInstOperands(instruction, operands, layout);
}

/// Every value of an expression over a few conditions, each assignment evaluated: exact
/// where the walk over value sets pairs values that never go together (`c + 2 * c`, a
/// `lea eax, [rdx + rdx * 2 + base]` after a `setle`, is 0 or 3, not 1 or 2).
std::optional<std::set<uint64_t>> overConditions(llvm::Value *value, unsigned limit) {
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  llvm::SmallVector<llvm::Value *, MaxConditions> conditions;
  unsigned nodes = 0;
  if (!instruction || !instruction->getModule() || !findConditions(value, conditions, nodes) ||
      conditions.empty())
    return std::nullopt;
  const llvm::DataLayout &layout = instruction->getModule()->getDataLayout();
  std::set<uint64_t> values;
  for (unsigned assignment = 0; assignment < (1u << conditions.size()); ++assignment) {
    auto *folded = llvm::dyn_cast_or_null<llvm::ConstantInt>(
        evaluate(value, conditions, assignment, layout));
    if (!folded)
      return std::nullopt;   // poison (a shift too far) or not foldable
    values.insert(folded->getZExtValue());
  }
  if (values.size() > limit)
    return std::nullopt;
  return values;
}

} // namespace

std::optional<std::vector<uint64_t>> possibleTargets(llvm::Value *value, unsigned limit,
                                                     bool *throughPhi) {
  if (throughPhi)
    *throughPhi = false;
  unsigned width = widthOf(value);
  // A condition itself is left to the walk, which may decide it (`icmp` of a choice).
  if (width > 1 && width <= 64)
    if (std::optional<std::set<uint64_t>> exact = overConditions(value, limit))
      return std::vector<uint64_t>(exact->begin(), exact->end());
  std::set<uint64_t> values;
  Collector collector(limit);
  bool ok = !llvm::isa<llvm::ConstantInt>(value) && width > 0 && width <= 64 &&
            collector.collect(value, width, values, 0, 0) && !values.empty();
  if (throughPhi)
    *throughPhi = collector.throughPhi();
  if (!ok)
    return std::nullopt;
  return std::vector<uint64_t>(values.begin(), values.end());
}

} // namespace hoist
