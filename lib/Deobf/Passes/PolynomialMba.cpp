// A polynomial MBA of degree two over n-bit words expands, bit by bit, into
//   P = sum_i 2^i s1(u_i) + sum_{i,j} 2^(i+j) s2(u_i, u_j)
// where u_i is the leaves' bit vector at position i, s1 the signature of the linear part
// (constants c written as -c times the all-ones function) and s2(u, v) = sum c * f(u) * g(v)
// over the products c * f * g. Grouping (i,j) with (j,i): P = 0 for every input when
//   s1(u) = 0 and s2(u, u) = 0 for every u, and s2(u, v) + s2(v, u) = 0 for every u != v,
// all modulo 2^n. The condition is sufficient, not necessary (carries between positions
// could cancel otherwise), so a pass may rely on it; the difference of two DAGs is checked.
#include "Deobf/Passes/PolynomialMba.h"

#include "Deobf/Passes/BitwiseBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <map>

namespace hoist::deobf {
namespace {

/// c * atoms[0] * atoms[1] ..., each atom a truth table over the leaves.
struct Term {
  uint64_t coefficient;
  std::vector<uint64_t> atoms;   ///< sorted, at most two
};
using Polynomial = std::vector<Term>;

constexpr unsigned MaxDegree = 2;
constexpr size_t MaxTerms = 256;

class Expander {
public:
  Expander(const Expression &expression, unsigned width)
      : expression_(expression), n_(expression.leaves().size()), mask_(widthMask(width)) {}

  /// `value`'s polynomial, after expanding every node of the DAG once.
  std::optional<Polynomial> expand(llvm::Value *value) {
    if (!expanded_) {
      expanded_ = true;
      for (llvm::Instruction *node : expression_.nodes())
        complete_ = complete_ && expandNode(node);
    }
    return complete_ ? polynomialOf(value) : std::nullopt;
  }

private:
  std::optional<uint64_t> tableOf(llvm::Value *value) {
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value)) {
      if (constant->isZero())
        return 0;
      if (constant->isMinusOne())
        return fullTable(n_);
      return std::nullopt;
    }
    if (auto found = tables_.find(value); found != tables_.end())
      return found->second;
    const std::vector<llvm::Value *> &leaves = expression_.leaves();
    auto leaf = std::find(leaves.begin(), leaves.end(), value);
    if (leaf != leaves.end())
      return variableTable(leaf - leaves.begin(), n_);
    return std::nullopt;
  }

  std::optional<Polynomial> polynomialOf(llvm::Value *value) {
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
      return Polynomial{{constant->getValue().getZExtValue() & mask_, {}}};
    if (auto found = polynomials_.find(value); found != polynomials_.end())
      return found->second;
    if (std::optional<uint64_t> table = tableOf(value))
      return Polynomial{{1, {*table}}};
    return std::nullopt;
  }

  /// Products with the all-ones function (the integer -1) become a sign; a zero function
  /// removes the term; equal atom lists merge.
  Polynomial normalize(Polynomial terms) {
    std::map<std::vector<uint64_t>, uint64_t> merged;
    for (Term &term : terms) {
      std::vector<uint64_t> atoms;
      bool zero = false;
      for (uint64_t atom : term.atoms) {
        if (atom == 0)
          zero = true;
        else if (atom == fullTable(n_))
          term.coefficient = 0 - term.coefficient;
        else
          atoms.push_back(atom);
      }
      if (zero)
        continue;
      std::sort(atoms.begin(), atoms.end());
      merged[atoms] = (merged[atoms] + term.coefficient) & mask_;
    }
    Polynomial result;
    for (auto &[atoms, coefficient] : merged)
      if (coefficient)
        result.push_back({coefficient, atoms});
    return result;
  }

  bool expandNode(llvm::Instruction *node) {
    llvm::Value *a = node->getOperand(0);
    llvm::Value *b = node->getNumOperands() > 1 ? node->getOperand(1) : nullptr;
    switch (node->getOpcode()) {
    case llvm::Instruction::And:
    case llvm::Instruction::Or:
    case llvm::Instruction::Xor: {
      std::optional<uint64_t> left = tableOf(a), right = tableOf(b);
      if (!left || !right)
        return false;   // a bitwise operator over arithmetic: not a polynomial MBA
      uint64_t table = node->getOpcode() == llvm::Instruction::And  ? *left & *right
                       : node->getOpcode() == llvm::Instruction::Or ? *left | *right
                                                                    : *left ^ *right;
      tables_[node] = table & fullTable(n_);
      return true;
    }
    case llvm::Instruction::Trunc:   // everything is computed modulo 2^width of the root
      if (std::optional<uint64_t> table = tableOf(a))
        tables_[node] = *table;
      else if (std::optional<Polynomial> inner = polynomialOf(a))
        polynomials_[node] = *inner;
      else
        return false;
      return true;
    default:
      break;
    }
    std::optional<Polynomial> left = polynomialOf(a), right = polynomialOf(b);
    if (!left || !right)
      return false;
    Polynomial result;
    switch (node->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
      result = *left;
      for (Term term : *right) {
        if (node->getOpcode() == llvm::Instruction::Sub)
          term.coefficient = 0 - term.coefficient;
        result.push_back(term);
      }
      break;
    case llvm::Instruction::Shl: {
      auto *amount = llvm::cast<llvm::ConstantInt>(b);
      uint64_t shift = amount->getZExtValue();
      for (Term term : *left) {
        term.coefficient = shift >= 64 ? 0 : term.coefficient << shift;
        result.push_back(term);
      }
      break;
    }
    case llvm::Instruction::Mul:
      for (const Term &x : *left)
        for (const Term &y : *right) {
          Term product{x.coefficient * y.coefficient, x.atoms};
          product.atoms.insert(product.atoms.end(), y.atoms.begin(), y.atoms.end());
          result.push_back(std::move(product));
        }
      break;
    default:
      return false;
    }
    result = normalize(std::move(result));
    for (const Term &term : result)
      if (term.atoms.size() > MaxDegree)
        return false;
    if (result.size() > MaxTerms)
      return false;
    polynomials_[node] = std::move(result);
    return true;
  }

  const Expression &expression_;
  unsigned n_;
  uint64_t mask_;
  std::map<llvm::Value *, uint64_t> tables_;
  std::map<llvm::Value *, Polynomial> polynomials_;
  bool expanded_ = false, complete_ = true;
};

bool isZero(const Polynomial &polynomial, unsigned n, uint64_t mask) {
  unsigned points = 1u << n;
  auto bit = [](uint64_t table, unsigned point) { return (table >> point) & 1; };
  for (unsigned u = 0; u < points; ++u) {
    uint64_t linear = 0;
    for (const Term &term : polynomial) {
      if (term.atoms.empty())   // c = -c * (all ones): contributes -c at every point
        linear -= term.coefficient;
      else if (term.atoms.size() == 1)
        linear += term.coefficient * bit(term.atoms[0], u);
    }
    if (linear & mask)
      return false;
    for (unsigned v = u; v < points; ++v) {
      uint64_t pair = 0;
      for (const Term &term : polynomial)
        if (term.atoms.size() == 2) {
          pair += term.coefficient * bit(term.atoms[0], u) * bit(term.atoms[1], v);
          if (v != u)
            pair += term.coefficient * bit(term.atoms[0], v) * bit(term.atoms[1], u);
        }
      if (pair & mask)
        return false;
    }
  }
  return true;
}

} // namespace

bool provedEqualAsPolynomials(const Expression &expression) {
  unsigned n = expression.leaves().size();
  if (n > 6)
    return false;
  llvm::Value *first = expression.root(0), *second = expression.root(1);
  unsigned width = first->getType()->getIntegerBitWidth();
  if (second->getType()->getIntegerBitWidth() != width)
    return false;
  Expander expander(expression, width);
  std::optional<Polynomial> left = expander.expand(first);
  std::optional<Polynomial> right = expander.expand(second);
  if (!left || !right)
    return false;
  Polynomial difference = *left;
  for (Term term : *right) {
    term.coefficient = 0 - term.coefficient;
    difference.push_back(term);
  }
  return isZero(difference, n, widthMask(width));
}

} // namespace hoist::deobf
