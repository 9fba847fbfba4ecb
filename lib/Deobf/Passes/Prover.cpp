// Testing and Z3. The DAG goes to Z3 as bit-vector terms, one per node, leaves as free
// constants; equality is proved by the negation being unsatisfiable.
#include "Deobf/Passes/Prover.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#ifdef HOIST_HAVE_Z3
#include <z3++.h>

#include <unordered_map>
#endif

namespace hoist::deobf {

std::vector<std::vector<uint64_t>> testPoints(const Expression &expression, unsigned count) {
  static const uint64_t corners[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull,
                                     2};
  size_t leaves = expression.leaves().size();
  std::vector<std::vector<uint64_t>> points;
  // Corner combinations, counting in base 6 over the leaves.
  for (uint64_t index = 0; points.size() < count / 2; ++index) {
    std::vector<uint64_t> point(leaves);
    uint64_t rest = index;
    for (size_t i = 0; i < leaves; ++i, rest /= 6)
      point[i] = corners[rest % 6];
    if (rest)
      break;   // every combination done
    points.push_back(std::move(point));
  }
  uint64_t state = 0x2545f4914f6cdd1dull;
  while (points.size() < count) {
    std::vector<uint64_t> point(leaves);
    for (uint64_t &value : point) {
      state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
      value = state * 0x2545f4914f6cdd1dull;
    }
    points.push_back(std::move(point));
  }
  // Only inputs the leaves can take (Expression::assumeKnownBits).
  for (std::vector<uint64_t> &point : points)
    for (size_t i = 0; i < leaves; ++i)
      point[i] = expression.leafInput(i, point[i]);
  return points;
}

std::optional<Verdict> decideByEnumeration(const Expression &expression, bool equal) {
  // Evaluation is exact only on nodes of at most 64 bits (a Condition DAG's wide nodes are
  // evaluated modulo 2^64): only then is trying every input a proof.
  bool exact = llvm::all_of(expression.nodes(), [](const llvm::Instruction *node) {
    return node->getType()->getIntegerBitWidth() <= 64 &&
           (!llvm::isa<llvm::ICmpInst>(node) ||
            node->getOperand(0)->getType()->getIntegerBitWidth() <= 64);
  });
  unsigned unknown = expression.unknownBits();
  if (!exact || unknown > MaxEnumeratedBits)
    return std::nullopt;
  // Input number `counter` deals its bits out to the leaves' unknown positions in order.
  const std::vector<llvm::Value *> &leaves = expression.leaves();
  std::vector<uint64_t> point(leaves.size());
  for (uint64_t counter = 0; counter >> unknown == 0; ++counter) {
    uint64_t rest = counter;
    for (size_t i = 0; i < leaves.size(); ++i) {
      uint64_t free = widthMask(leaves[i]->getType()->getIntegerBitWidth()) &
                      ~(expression.knownZero(i) | expression.knownOne(i));
      point[i] = expression.knownOne(i);
      for (; free; free &= free - 1, rest >>= 1)
        point[i] |= (rest & 1) * (free & -free);
    }
    std::vector<uint64_t> values = expression.evaluate(point);
    if ((values[0] == values[1]) != equal)
      return Verdict::Refuted;
  }
  return Verdict::Proved;
}

namespace {

constexpr unsigned TestCount = 256;

#ifdef HOIST_HAVE_Z3
using Terms = std::unordered_map<llvm::Value *, z3::expr>;

z3::expr operandTerm(z3::context &z3, llvm::Value *value,
                     Terms &terms) {
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value)) {
    if (constant->getBitWidth() > 64)   // a wide node's operand (ExpressionKind::Condition)
      return z3.bv_val(llvm::toString(constant->getValue(), 10, false).c_str(),
                       constant->getBitWidth());
    return z3.bv_val(constant->getValue().getZExtValue(), constant->getBitWidth());
  }
  return terms.find(value)->second;
}

/// `a predicate b` as a Z3 boolean.
z3::expr compareTerm(llvm::CmpInst::Predicate predicate, const z3::expr &a, const z3::expr &b) {
  switch (predicate) {
  case llvm::CmpInst::ICMP_EQ: return a == b;
  case llvm::CmpInst::ICMP_NE: return a != b;
  case llvm::CmpInst::ICMP_ULT: return z3::ult(a, b);
  case llvm::CmpInst::ICMP_ULE: return z3::ule(a, b);
  case llvm::CmpInst::ICMP_UGT: return z3::ugt(a, b);
  case llvm::CmpInst::ICMP_UGE: return z3::uge(a, b);
  case llvm::CmpInst::ICMP_SLT: return a < b;
  case llvm::CmpInst::ICMP_SLE: return a <= b;
  case llvm::CmpInst::ICMP_SGT: return a > b;
  default: return a >= b;   // ICMP_SGE, the last integer predicate
  }
}

/// Terms for every leaf and node; the roots' terms are then in `terms`.
void buildTerms(z3::context &z3, const Expression &expression,
                Terms &terms) {
  unsigned index = 0;
  for (llvm::Value *leaf : expression.leaves())
    terms.insert({leaf, z3.bv_const(("leaf" + std::to_string(index++)).c_str(),
                                    leaf->getType()->getIntegerBitWidth())});
  for (llvm::Instruction *node : expression.nodes()) {
    unsigned width = node->getType()->getIntegerBitWidth();
    z3::expr a = operandTerm(z3, node->getOperand(0), terms);
    auto b = [&] { return operandTerm(z3, node->getOperand(1), terms); };
    z3::expr result = a;
    switch (node->getOpcode()) {
    case llvm::Instruction::Add: result = a + b(); break;
    case llvm::Instruction::Sub: result = a - b(); break;
    case llvm::Instruction::Mul: result = a * b(); break;
    case llvm::Instruction::And: result = a & b(); break;
    case llvm::Instruction::Or: result = isArithmeticNode(node) ? a + b() : a | b(); break;
    case llvm::Instruction::Xor: result = a ^ b(); break;
    case llvm::Instruction::Shl: result = z3::shl(a, b()); break;
    case llvm::Instruction::LShr: result = z3::lshr(a, b()); break;
    case llvm::Instruction::AShr: result = z3::ashr(a, b()); break;
    case llvm::Instruction::ICmp:
      result = z3::ite(compareTerm(llvm::cast<llvm::ICmpInst>(node)->getPredicate(), a, b()),
                       z3.bv_val(1, 1), z3.bv_val(0, 1));
      break;
    case llvm::Instruction::Trunc: result = a.extract(width - 1, 0); break;
    case llvm::Instruction::ZExt: result = z3::zext(a, width - a.get_sort().bv_size()); break;
    case llvm::Instruction::SExt: result = z3::sext(a, width - a.get_sort().bv_size()); break;
    case llvm::Instruction::Select:
      result = z3::ite(a == z3.bv_val(1, 1), b(), operandTerm(z3, node->getOperand(2), terms));
      break;
    default: break;
    }
    terms.insert({node, result});
  }
}

/// Proved when `negation` (built from the terms) is unsatisfiable.
template <typename Negate>
Verdict proveWithZ3(const Expression &expression, unsigned timeoutMs, unsigned resourceLimit,
                    Negate negate) {
  try {
    z3::context z3;
    Terms terms;
    buildTerms(z3, expression, terms);
    z3::solver solver(z3);
    z3::params params(z3);
    params.set("timeout", timeoutMs);
    if (resourceLimit)   // Z3's own work count: the same verdict however loaded the machine
      params.set("rlimit", resourceLimit);
    solver.set(params);
    solver.add(negate(z3, terms));
    // The inputs the leaves can take (Expression::assumeKnownBits).
    for (unsigned i = 0; i < expression.leaves().size(); ++i) {
      uint64_t known = expression.knownZero(i) | expression.knownOne(i);
      if (!known)
        continue;
      const z3::expr &leaf = terms.find(expression.leaves()[i])->second;
      unsigned width = leaf.get_sort().bv_size();
      solver.add((leaf & z3.bv_val(known, width)) == z3.bv_val(expression.knownOne(i), width));
    }
    switch (solver.check()) {
    case z3::unsat: return Verdict::Proved;
    case z3::sat: return Verdict::Refuted;
    default: return Verdict::Unknown;
    }
  } catch (const z3::exception &) {
    return Verdict::Unknown;
  }
}
#endif

} // namespace

bool haveZ3() {
#ifdef HOIST_HAVE_Z3
  return true;
#else
  return false;
#endif
}

bool testsAgree(const Expression &expression) {
  for (const std::vector<uint64_t> &point : testPoints(expression, TestCount)) {
    std::vector<uint64_t> values = expression.evaluate(point);
    if (values[0] != values[1])
      return false;
  }
  return true;
}

Verdict proveEqual(const Expression &expression, unsigned timeoutMs, unsigned resourceLimit) {
  if (!testsAgree(expression))
    return Verdict::Refuted;
  if (std::optional<Verdict> verdict = decideByEnumeration(expression, true))
    return *verdict;
#ifdef HOIST_HAVE_Z3
  return proveWithZ3(expression, timeoutMs, resourceLimit, [&](z3::context &z3, Terms &terms) {
    return operandTerm(z3, expression.root(0), terms) != operandTerm(z3, expression.root(1), terms);
  });
#else
  return Verdict::Unknown;
#endif
}

Verdict proveNeverEqual(const Expression &expression, unsigned timeoutMs,
                        unsigned resourceLimit) {
  for (const std::vector<uint64_t> &point : testPoints(expression, TestCount)) {
    std::vector<uint64_t> values = expression.evaluate(point);
    if (values[0] == values[1])
      return Verdict::Refuted;
  }
  if (std::optional<Verdict> verdict = decideByEnumeration(expression, false))
    return *verdict;
#ifdef HOIST_HAVE_Z3
  return proveWithZ3(expression, timeoutMs, resourceLimit, [&](z3::context &z3, Terms &terms) {
    return operandTerm(z3, expression.root(0), terms) == operandTerm(z3, expression.root(1), terms);
  });
#else
  return Verdict::Unknown;
#endif
}

} // namespace hoist::deobf
