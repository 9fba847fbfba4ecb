// MBA simplification.
//
// A linear MBA E (integer multiples of bitwise functions of the leaves, summed) acts on each
// bit position alike: E(x) = sum_k 2^k s(x_k), where x_k are the leaves' bits at position k
// and s, the signature vector, is E's formula read over one bit. Evaluating E with the leaves
// in {0,1} (bit 0 only) gives E(v) = s(v) - 2 s(0), hence s(v) = E(v) - 2 E(0). Any other
// expression with the same signature is equal to E for every input, so the shortest one found
// for s replaces E, with no proof needed:
//   - s takes two values p and q: (q - p) * f - p, f the bitwise function true where s = q
//     ((x^y) + 2*(x&y) has s = 0,1,1,2 over (x,y) = 00,10,01,11; x^y has s = 0,1,1,0: f = x^y);
//   - else the sum of conjunctions: s(v) = sum over subsets S of v of c_S (Moebius inversion),
//     E = -c_{} + sum c_S * AND(S) (x+y: c_x = c_y = 1, c_xy = 0).
// Other DAGs (products of variables, bitwise operators over sums, constants other than 0 and
// -1 under a bitwise operator) get the same candidates plus the multilinear polynomial that
// matches E on {0,1} (x*y for (x&y)*(x|y) + (x&~y)*(~x&y)); a candidate replaces E only when
// tests agree and it is proved: as polynomials of degree two over bitwise functions
// (PolynomialMba.cpp), else by Z3 within its budget.
#include "Deobf/Passes/BitwiseBuilder.h"
#include "Deobf/Passes/DeobfPasses.h"
#include "Deobf/Passes/Expression.h"
#include "Deobf/Passes/PolynomialMba.h"
#include "Deobf/Passes/ProofCache.h"
#include "Deobf/Passes/Prover.h"
#include "Deobf/Passes/SignBitLeaves.h"
#include "Deobf/Passes/StepFunction.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/DemandedBits.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/IR/ValueHandle.h>
#include <llvm/Transforms/Utils/Local.h>

#include <bit>
#include <set>

namespace hoist {
namespace {

using deobf::Expression;

constexpr unsigned MaxNodes = 128;
constexpr unsigned MaxLeaves = 5;
constexpr unsigned WideLeaves = 16;   ///< leaves looked for before sums become leaves
constexpr unsigned ProofsPerFunction = 16;   ///< budget of Z3 queries per pass run

bool isUniformConstant(const llvm::Value *value) {
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value);
  return constant && (constant->isZero() || constant->isMinusOne());
}

/// `xor x, -1`.
bool isComplement(const llvm::Instruction *node) {
  return llvm::PatternMatch::match(node, llvm::PatternMatch::m_Not(llvm::PatternMatch::m_Value()));
}

/// A DAG is a linear MBA when bitwise operators see only leaves, 0, -1 and bitwise results,
/// and arithmetic only adds, subtracts, negates, scales by constants and truncates.
bool isLinearMba(const Expression &expression) {
  std::set<const llvm::Value *> bitwise(expression.leaves().begin(), expression.leaves().end());
  for (llvm::Instruction *node : expression.nodes()) {
    auto operandBitwise = [&](unsigned i) {
      llvm::Value *operand = node->getOperand(i);
      return bitwise.count(operand) || isUniformConstant(operand);
    };
    if (deobf::isBitwiseNode(node)) {
      if (!operandBitwise(0) || !operandBitwise(1))
        return false;
      bitwise.insert(node);
      continue;
    }
    switch (node->getOpcode()) {
    case llvm::Instruction::Trunc:
      if (operandBitwise(0))
        bitwise.insert(node);
      break;
    case llvm::Instruction::Select:
      return false;
    case llvm::Instruction::Mul:
      if (!llvm::isa<llvm::ConstantInt>(node->getOperand(0)) &&
          !llvm::isa<llvm::ConstantInt>(node->getOperand(1)))
        return false;
      break;
    default:   // add (or `or disjoint`), sub, shl by a constant
      break;
    }
  }
  return true;
}

/// Moebius inversion over subsets: c_S = sum over T in S of (-1)^|S\T| values[T].
std::vector<uint64_t> subsetCoefficients(std::vector<uint64_t> values, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    for (unsigned set = 0; set < values.size(); ++set)
      if (set & (1u << i))
        values[set] -= values[set ^ (1u << i)];
  return values;
}

/// A DAG is a linear MBA with constants when it is a sum of per-position functions: E(x) =
/// E(0) + sum over bit positions k of h_k(the leaves' bits at k), which the per-bit form
/// (maskedTerms) reproduces exactly. So it is when bitwise operators see only constants and
/// bitwise functions of the leaves all shifted left by one amount s (output bit j then
/// depends on the leaves' bits at j - s alone: `(x << 3) & -16` is 8 * (x & -2)), and the
/// arithmetic over them adds, subtracts, scales by constants, shifts, truncates, or adds a
/// constant chosen by a value's low bit (`select (trunc v to i1), a, b`: bit 0 depends on
/// position 0 alone). Constants other than 0 and -1 make h_k differ between positions.
bool isLinearMbaWithConstants(const Expression &expression) {
  constexpr int Arithmetic = -1;
  // Bitwise values: the shift of the leaves they are a bitwise function of; else Arithmetic.
  llvm::DenseMap<const llvm::Value *, int> shiftOf;
  for (llvm::Value *leaf : expression.leaves())
    shiftOf[leaf] = 0;
  for (llvm::Instruction *node : expression.nodes()) {
    auto operandShift = [&](unsigned i) -> std::optional<int> {
      if (llvm::isa<llvm::ConstantInt>(node->getOperand(i)))
        return std::nullopt;   // fits any shift
      return shiftOf.lookup(node->getOperand(i));
    };
    int shift = Arithmetic;
    if (deobf::isBitwiseNode(node)) {
      std::optional<int> a = operandShift(0), b = operandShift(1);
      if (a == Arithmetic || b == Arithmetic || (a && b && *a != *b))
        return false;
      shift = a ? *a : *b;
    } else if (node->getOpcode() == llvm::Instruction::Shl) {
      std::optional<int> a = operandShift(0);
      uint64_t amount = llvm::cast<llvm::ConstantInt>(node->getOperand(1))->getZExtValue();
      if (a && *a != Arithmetic && amount < 64)
        shift = *a + int(amount);
    } else if (node->getOpcode() == llvm::Instruction::Trunc) {
      shift = operandShift(0).value_or(Arithmetic);
    } else if (node->getOpcode() == llvm::Instruction::Select) {
      if (!llvm::isa<llvm::ConstantInt>(node->getOperand(1)) ||
          !llvm::isa<llvm::ConstantInt>(node->getOperand(2)))
        return false;
    } else if (node->getOpcode() == llvm::Instruction::Mul &&
               !llvm::isa<llvm::ConstantInt>(node->getOperand(0)) &&
               !llvm::isa<llvm::ConstantInt>(node->getOperand(1))) {
      return false;
    }
    shiftOf[node] = shift;
  }
  return true;
}

/// c * (AND of the leaves in `set` & mask): one term of the per-bit form.
struct MaskedTerm {
  unsigned set;
  uint64_t coefficient;
  uint64_t mask;
};

/// The per-bit form of E: sum over leaf sets S and masks M of c * (AND(S) & M), plus E(0).
/// With the leaves' bits at position k set as in T (all other bits 0), E(T << k) - E(0) is
/// 2^k times the change of bit k's function; Moebius inversion over T gives, for every S,
/// d_k(S) = 2^k c_k(S) modulo 2^width, and positions k with the same c form one mask. Exact
/// for a linear MBA with constants; a candidate to prove for anything else (nullopt when some
/// d_k is not a multiple of 2^k, which no such form has).
std::optional<std::vector<MaskedTerm>> maskedTerms(const Expression &expression, unsigned width) {
  unsigned n = expression.leaves().size();
  uint64_t full = deobf::widthMask(width);
  std::vector<std::vector<uint64_t>> byPosition(width);   // [k][set]
  for (unsigned k = 0; k < width; ++k) {
    std::vector<uint64_t> values(1u << n);
    for (unsigned point = 0; point < values.size(); ++point) {
      std::vector<uint64_t> leaves(n);
      for (unsigned i = 0; i < n; ++i)
        leaves[i] = uint64_t((point >> i) & 1) << k;
      values[point] = expression.evaluate(leaves)[0];
    }
    byPosition[k] = subsetCoefficients(std::move(values), n);
  }
  std::vector<MaskedTerm> terms;
  for (unsigned set = 1; set < (1u << n); ++set) {
    uint64_t grouped = 0;
    for (unsigned k = 0; k < width; ++k) {
      uint64_t d = byPosition[k][set] & full;
      if ((grouped >> k) & 1 || d == 0)
        continue;
      if (d & ((1ull << k) - 1))
        return std::nullopt;
      uint64_t coefficient = d >> k, mask = 0;
      for (unsigned j = k; j < width; ++j)
        if (!((grouped >> j) & 1) && ((coefficient << j) & full) == (byPosition[j][set] & full))
          mask |= 1ull << j;
      grouped |= mask;
      terms.push_back({set, coefficient, mask});
    }
  }
  return terms;
}

/// k when `root` is `and x, 2^k - 1` with 0 < k < its width, else 0.
unsigned lowBitsKept(const llvm::Instruction *root) {
  auto *mask = llvm::dyn_cast<llvm::ConstantInt>(root->getOperand(root->getNumOperands() - 1));
  if (root->getOpcode() != llvm::Instruction::And || !mask || !mask->getValue().isMask())
    return 0;
  unsigned bits = mask->getValue().countr_one();
  return bits < root->getType()->getIntegerBitWidth() ? bits : 0;
}

/// Builds candidates in front of `at`, each a value of the root's type over the leaves.
class CandidateBuilder {
public:
  CandidateBuilder(const Expression &expression, llvm::Instruction *at)
      : builder_(at), type_(llvm::cast<llvm::IntegerType>(expression.root(0)->getType())) {
    for (llvm::Value *leaf : expression.leaves()) {
      leaves_.push_back(leaf->getType() == type_ ? leaf : builder_.CreateTrunc(leaf, type_));
      if (leaves_.back() != leaf)
        truncs_.emplace_back(leaves_.back());
    }
  }

  /// Truncated leaves no candidate kept.
  ~CandidateBuilder() {
    for (llvm::WeakVH &handle : truncs_)   // a discarded candidate may have taken it along
      if (auto *trunc = llvm::dyn_cast_or_null<llvm::Instruction>(handle.operator llvm::Value *());
          trunc && trunc->use_empty())
        trunc->eraseFromParent();
  }

  llvm::Value *constant(uint64_t value) { return llvm::ConstantInt::get(type_, value); }

  /// sum + coefficient * term (sum may be null), as a subtraction when the coefficient is
  /// negative.
  llvm::Value *addScaled(llvm::Value *sum, uint64_t coefficient, llvm::Value *term) {
    unsigned width = type_->getBitWidth();
    coefficient &= deobf::widthMask(width);
    if (coefficient == 0)
      return sum;
    bool negative = sum && (coefficient >> (width - 1)) & 1;
    uint64_t magnitude = negative ? (0 - coefficient) & deobf::widthMask(width) : coefficient;
    llvm::Value *scaled = term;
    if (!sum && magnitude == deobf::widthMask(width))
      scaled = builder_.CreateNeg(term);
    else if (magnitude != 1)
      scaled = builder_.CreateMul(term, constant(magnitude));
    if (!sum)
      return scaled;
    return negative ? builder_.CreateSub(sum, scaled) : builder_.CreateAdd(sum, scaled);
  }

  llvm::Value *finish(llvm::Value *sum, uint64_t constantTerm) {
    constantTerm &= deobf::widthMask(type_->getBitWidth());
    if (!sum)
      return constant(constantTerm);
    return constantTerm ? builder_.CreateAdd(sum, constant(constantTerm)) : sum;
  }

  /// (q - p) * f - p, f true where the signature is q.
  llvm::Value *twoValued(uint64_t table, uint64_t p, uint64_t q) {
    // Without leaves the bitwise function is its value at the one point: all ones or zero.
    llvm::Value *f = !leaves_.empty() ? deobf::buildBitwise(builder_, table, leaves_)
                     : table & 1      ? llvm::Constant::getAllOnesValue(type_)
                                      : llvm::Constant::getNullValue(type_);
    return finish(addScaled(nullptr, q - p, f), -p);
  }

  /// -c_{} + sum c_S * AND(S), or with `products` sum d_S * PRODUCT(S) + d_{}.
  llvm::Value *subsetSum(const std::vector<uint64_t> &coefficients, bool products) {
    unsigned width = type_->getBitWidth();
    std::vector<unsigned> sets;
    for (unsigned set = 1; set < coefficients.size(); ++set)
      if (coefficients[set] & deobf::widthMask(width))
        sets.push_back(set);
    // Positive coefficients first: x - y rather than -y + x.
    std::stable_sort(sets.begin(), sets.end(), [&](unsigned a, unsigned b) {
      return !((coefficients[a] >> (width - 1)) & 1) && ((coefficients[b] >> (width - 1)) & 1);
    });
    llvm::Value *sum = nullptr;
    for (unsigned set : sets) {
      llvm::Value *term = nullptr;
      for (unsigned i = 0; i < leaves_.size(); ++i)
        if (set & (1u << i))
          term = !term ? leaves_[i]
                       : products ? builder_.CreateMul(term, leaves_[i])
                                  : builder_.CreateAnd(term, leaves_[i]);
      sum = addScaled(sum, coefficients[set], term);
    }
    return finish(sum, products ? coefficients[0] : -coefficients[0]);
  }

  /// The multilinear polynomial sum d_S * PRODUCT(S) + d_{} modulo 2^bits, its coefficients
  /// as signed bits-bit numbers (63 is -1 modulo 64: a negation, not a multiplication), masked
  /// to the low `bits` bits.
  llvm::Value *lowBitsPolynomial(std::vector<uint64_t> coefficients, unsigned bits) {
    unsigned width = type_->getBitWidth();
    for (uint64_t &coefficient : coefficients)
      coefficient = uint64_t(llvm::SignExtend64(coefficient, bits)) & deobf::widthMask(width);
    llvm::Value *sum = subsetSum(coefficients, true);
    if (llvm::isa<llvm::Constant>(sum))
      return constant(llvm::cast<llvm::ConstantInt>(sum)->getZExtValue() &
                      deobf::widthMask(bits));
    return builder_.CreateAnd(sum, constant(deobf::widthMask(bits)));
  }

  /// sum c * (AND(S) & M) + constantTerm.
  llvm::Value *masked(const std::vector<MaskedTerm> &terms, uint64_t constantTerm) {
    uint64_t full = deobf::widthMask(type_->getBitWidth());
    llvm::Value *sum = nullptr;
    for (const MaskedTerm &term : terms) {
      llvm::Value *conjunction = nullptr;
      for (unsigned i = 0; i < leaves_.size(); ++i)
        if (term.set & (1u << i))
          conjunction = conjunction ? builder_.CreateAnd(conjunction, leaves_[i]) : leaves_[i];
      if ((term.mask & full) != full)
        conjunction = builder_.CreateAnd(conjunction, constant(term.mask));
      sum = addScaled(sum, term.coefficient, conjunction);
    }
    return finish(sum, constantTerm);
  }

private:
  llvm::IRBuilder<> builder_;
  llvm::IntegerType *type_;
  std::vector<llvm::Value *> leaves_;
  std::vector<llvm::WeakVH> truncs_;
};

/// Instructions the candidate adds (a DAG over the same leaves; `forced` are leaves the DAG
/// could look into, whose instructions stay anyway).
unsigned costOf(llvm::Value *candidate, llvm::ArrayRef<llvm::Value *> forced) {
  std::optional<Expression> built =
      Expression::collect({candidate}, deobf::ExpressionKind::Mba, MaxNodes * 2, 64, forced);
  return built ? built->nodes().size() : ~0u;
}

/// Multiplications in the DAG under `value`: of two expressions of one size, the one with
/// fewer is simpler (`(0 - x) & 63` rather than `(x * 63) & 63`).
unsigned multiplications(llvm::Value *value, llvm::ArrayRef<llvm::Value *> forced) {
  std::optional<Expression> built =
      Expression::collect({value}, deobf::ExpressionKind::Mba, MaxNodes * 2, 64, forced);
  return built ? llvm::count_if(built->nodes(),
                                [](const llvm::Instruction *node) {
                                  return node->getOpcode() == llvm::Instruction::Mul;
                                })
               : ~0u;
}

class MbaSimplifier {
public:
  MbaSimplifier(unsigned &proofsLeft, llvm::DominatorTree &dominators)
      : proofsLeft_(proofsLeft), dominators_(dominators) {}

  /// Replaces `root` when a shorter equal expression is found.
  bool simplify(llvm::Instruction *root) {
    // A value of one x through comparisons alone: constant on x's ranges, whatever the MBA.
    // Only at the top of the arithmetic: a select inside would be a leaf to the MBA around.
    bool top = llvm::none_of(root->users(), [](const llvm::User *user) {
      return deobf::isNode(user, deobf::ExpressionKind::Mba);
    });
    if (llvm::Value *steps = top ? deobf::buildStepFunction(root) : nullptr) {
      steps->takeName(root);
      root->replaceAllUsesWith(steps);
      llvm::RecursivelyDeleteTriviallyDeadInstructions(root);
      return true;
    }
    // Affine arithmetic needs n + 1 evaluations, not 2^n: any number of leaves.
    if (std::optional<Expression> wide =
            Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, WideLeaves);
        wide && isAffine(*wide))
      return simplifyAffine(root, *wide);
    // (The MBA may join sums in the IR even when it fails: the affine part collects again.)
    return simplifyMba(root) || simplifyAffineAbove(root) || simplifyOverSumsWithConstants(root);
  }

  /// The affine arithmetic above the bitwise parts, with those as leaves: what is left around
  /// an MBA once its pieces were simplified one by one (4 * (t + u + 1) + 3 * ~u is t + u + 1
  /// whatever t is made of). Tried last: a whole MBA simplifies further than its top.
  bool simplifyAffineAbove(llvm::Instruction *root) {
    std::optional<Expression> wide =
        Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, WideLeaves);
    if (!wide)
      return false;
    std::vector<llvm::Value *> bitwise;
    for (llvm::Instruction *node : wide->nodes())
      if (!isAffineNode(node))
        bitwise.push_back(node);
    if (llvm::is_contained(bitwise, root))
      return false;
    std::optional<Expression> above =
        Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, WideLeaves, bitwise);
    return above && isAffine(*above) && simplifyAffine(root, *above);
  }

  /// An MBA under `root` replaced by a shorter equal expression.
  bool simplifyMba(llvm::Instruction *root) {
    std::optional<Expression> expression =
        Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, MaxLeaves);
    if (!expression) {
      // Too many leaves: an MBA over sums of many values (six arguments added before the
      // bitwise operators see them) has few leaves once the sums are leaves themselves.
      std::optional<Expression> wide =
          Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, WideLeaves);
      std::vector<llvm::Value *> sums =
          wide ? wide->arithmeticUnderBitwise() : std::vector<llvm::Value *>{};
      unifyComplements(sums);
      if (!sums.empty())
        expression =
            Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, MaxLeaves, sums);
    }
    if (!expression)
      return false;
    if (!expression->mixesArithmeticAndBitwise())
      return false;   // bitwise alone is InstCombine's; arithmetic alone is affine (above)
    if (!isLinearMba(*expression)) {
      // Sums under bitwise operators as leaves: often a linear MBA over them, exact without
      // a proof (then the sums themselves are simplified on their own).
      std::vector<llvm::Value *> sums = expression->arithmeticUnderBitwise();
      if (unifyComplements(sums)) {
        // The DAG lost the sums joined away: collected again.
        expression = Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes,
                                         MaxLeaves, sums);
        if (!expression)
          return false;
      }
      std::optional<Expression> linear =
          sums.empty() ? std::nullopt
                       : Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes,
                                             MaxLeaves, sums);
      if (linear && isLinearMba(*linear) && linear->mixesArithmeticAndBitwise() &&
          simplifyCollected(root, *linear))
        return true;
    }
    return simplifyCollected(root, *expression) || simplifyOverSignBits(root, *expression);
  }

  /// Sums under bitwise operators as leaves of a linear MBA with constants (LLVM's form of an
  /// MBA over s = n - 1: `(s & 7) * 5 + (s ^ 7) * 7`, with s also written `2n + ~n`): exact
  /// over the sums. Tried last, once nothing over the DAG's own leaves was found and the
  /// affine part above had nothing to join: over n itself an MBA often simplifies further,
  /// and the sums kept as leaves would stay (count_twice's pieces of k).
  bool simplifyOverSumsWithConstants(llvm::Instruction *root) {
    std::optional<Expression> expression =
        Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, MaxLeaves);
    if (!expression || isLinearMba(*expression))
      return false;
    std::vector<llvm::Value *> sums = expression->arithmeticUnderBitwise();
    if (sums.empty())
      return false;
    std::optional<Expression> overSums =
        Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, MaxLeaves, sums);
    return overSums && !isLinearMba(*overSums) && isLinearMbaWithConstants(*overSums) &&
           overSums->mixesArithmeticAndBitwise() && simplifyCollected(root, *overSums);
  }

  /// The DAG again with right shifts of one value's sign as shifts of its sign bit
  /// (SignBitLeaves): several leaves become one bit, few enough to enumerate.
  bool simplifyOverSignBits(llvm::Instruction *root, const Expression &expression) {
    deobf::SignBitLeaves signBits;
    if (!signBits.expose(expression, dominators_))
      return false;
    std::optional<Expression> overBits =
        Expression::collect({root}, deobf::ExpressionKind::Mba, MaxNodes, MaxLeaves);
    if (overBits && overBits->mixesArithmeticAndBitwise() && simplifyCollected(root, *overBits)) {
      signBits.commit();
      return true;
    }
    signBits.undo();
    return false;
  }

  /// `icmp eq/ne A, B` over MBA: as `icmp eq/ne (A - B), 0`, when the difference simplifies.
  /// A and B are often the two halves of one encoding (`(r & -64) * (2^26 - 1) - 1 == ~r` is
  /// `(r & 63) == 0`), shared with other users, so that neither is worth rewriting alone.
  bool simplifyComparison(llvm::ICmpInst *compare) {
    llvm::Value *a = compare->getOperand(0), *b = compare->getOperand(1);
    if (!compare->isEquality() || llvm::isa<llvm::Constant>(a) || llvm::isa<llvm::Constant>(b) ||
        !a->getType()->isIntegerTy() ||
        !(deobf::isNode(a, deobf::ExpressionKind::Mba) ||
          deobf::isNode(b, deobf::ExpressionKind::Mba)))
      return false;
    auto *difference = llvm::cast<llvm::Instruction>(llvm::IRBuilder<>(compare).CreateSub(a, b));
    // The comparison reads the difference only, and so does every A - B it dominates (the
    // side taken when they differ often computes it): A and B lose those uses, so the
    // difference's DAG may own them.
    std::vector<llvm::Instruction *> sameDifferences;
    for (llvm::User *user : a->users())
      if (auto *other = llvm::dyn_cast<llvm::Instruction>(user);
          other && other != difference && other->getOpcode() == llvm::Instruction::Sub &&
          other->getOperand(0) == a && other->getOperand(1) == b &&
          dominators_.dominates(difference, other))
        sameDifferences.push_back(other);
    for (llvm::Instruction *other : sameDifferences) {
      other->replaceAllUsesWith(difference);
      other->eraseFromParent();
    }
    compare->setOperand(0, difference);
    compare->setOperand(1, llvm::Constant::getNullValue(a->getType()));
    if (simplify(difference))
      return true;
    compare->setOperand(0, a);
    compare->setOperand(1, b);
    if (difference->use_empty())
      difference->eraseFromParent();
    return false;
  }

private:
  /// Sums that are the same affine function of their leaves as another, or its complement
  /// (InstCombine writes ~s as -1 - s, and 1 - (s + 2) for ~(s - 2)): the later one becomes
  /// the earlier one or its xor with -1, so that the MBA over them has one leaf, not two
  /// unrelated ones. Affine functions are equal exactly when they agree at 0 and at every
  /// unit vector, so no proof is needed. Sums joined away leave `sums`.
  bool unifyComplements(std::vector<llvm::Value *> &sums) {
    size_t before = sums.size();
    for (size_t i = 0; i < sums.size(); ++i)
      for (size_t j = i + 1; j < sums.size();) {
        if (llvm::Value *joined = joinAffine(sums[i], sums[j])) {
          sums[i] = joined;
          sums.erase(sums.begin() + j);
        } else {
          ++j;
        }
      }
    return sums.size() != before;
  }

  /// Arithmetic with constant factors, truncations and complements (~x is -1 - x).
  static bool isAffine(const Expression &expression) {
    return llvm::all_of(expression.nodes(), isAffineNode);
  }

  static bool isAffineNode(const llvm::Instruction *node) {
    unsigned opcode = node->getOpcode();
    return opcode == llvm::Instruction::Trunc || isComplement(node) ||
           (deobf::isArithmeticNode(node) &&
            (opcode != llvm::Instruction::Mul ||
             llvm::isa<llvm::ConstantInt>(node->getOperand(0)) ||
             llvm::isa<llvm::ConstantInt>(node->getOperand(1))));
  }

  /// When a and b (instructions of one block) are equal or complements, rewrites the later
  /// one's uses and returns the one kept; null otherwise. So they are, too, when they agree in
  /// the low m bits and the later one's users read no others (LLVM's demanded bits: `-s` and
  /// `s + 2^62 - 1` under a shift left by 2 are complements there).
  llvm::Value *joinAffine(llvm::Value *a, llvm::Value *b) {
    auto *first = llvm::dyn_cast<llvm::Instruction>(a);
    auto *second = llvm::dyn_cast<llvm::Instruction>(b);
    if (!first || !second || first->getParent() != second->getParent() ||
        first->getType() != second->getType())
      return nullptr;
    if (second->comesBefore(first))
      std::swap(first, second);
    std::optional<Expression> pair = Expression::collect(
        {first, second}, deobf::ExpressionKind::Mba, MaxNodes, WideLeaves);
    if (!pair || !isAffine(*pair))
      return nullptr;
    unsigned n = pair->leaves().size();
    unsigned width = first->getType()->getIntegerBitWidth();
    // The differences (for equal) and sums (for complements) of the two coefficient vectors,
    // or-ed: zero in the low bits where the affine functions agree (or are complements).
    std::vector<uint64_t> point(n, 0);
    std::vector<uint64_t> origin = pair->evaluate(point);
    uint64_t equalDifference = origin[0] - origin[1];
    uint64_t complementDifference = origin[0] + origin[1] + 1;
    for (unsigned i = 0; i < n; ++i) {
      point.assign(n, 0);
      point[i] = 1;
      std::vector<uint64_t> values = pair->evaluate(point);
      uint64_t slopeFirst = values[0] - origin[0], slopeSecond = values[1] - origin[1];
      equalDifference |= slopeFirst - slopeSecond;
      complementDifference |= slopeFirst + slopeSecond;
    }
    auto agreeingBits = [&](uint64_t difference) {
      difference &= deobf::widthMask(width);
      return difference ? unsigned(std::countr_zero(difference)) : width;
    };
    unsigned equalBits = agreeingBits(equalDifference);
    unsigned complementBits = agreeingBits(complementDifference);
    unsigned agreeing = std::max(equalBits, complementBits);
    // Sums agree in a few low bits by chance (any two of one parity agree in bit 0); an
    // encoding that adds a constant near a power of two makes them agree in most. Only those
    // are worth DemandedBits' walk over the whole function.
    if (agreeing < width && agreeing * 2 < width)
      return nullptr;
    bool complement = complementBits > equalBits;
    if (agreeing < width && !readsOnlyLowBits(second, agreeing))
      return nullptr;
    llvm::Value *replacement = first;
    if (complement)
      replacement = llvm::IRBuilder<>(second).CreateXor(
          first, llvm::ConstantInt::getAllOnesValue(first->getType()));
    second->replaceAllUsesWith(replacement);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(second);
    return first;
  }

  /// Whether the users of `value` read only its low `bits` bits (LLVM's DemandedBits); if so,
  /// they lose the flags that said something of the others (nsw, nuw, exact, disjoint), as
  /// LLVM's BDCE does when it changes bits nobody reads, since the value is about to change
  /// there.
  bool readsOnlyLowBits(llvm::Instruction *value, unsigned bits) {
    llvm::Function &function = *value->getFunction();
    llvm::AssumptionCache assumptions(function);
    llvm::DemandedBits demanded(function, assumptions, dominators_);
    if (demanded.getDemandedBits(value).getActiveBits() > bits)
      return false;
    std::vector<llvm::Instruction *> worklist{value};
    llvm::SmallPtrSet<llvm::Instruction *, 16> visited;
    while (!worklist.empty()) {
      llvm::Instruction *next = worklist.back();
      worklist.pop_back();
      if (next != value) {
        next->dropPoisonGeneratingAnnotations();
        if (demanded.getDemandedBits(next).isAllOnes())
          continue;   // its users read all of it, which did not change
      }
      for (llvm::User *user : next->users())
        if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(user);
            instruction && instruction->getType()->isIntegerTy() && visited.insert(instruction).second)
          worklist.push_back(instruction);
    }
    return true;
  }

  /// Arithmetic alone, affine in its leaves (what is left once an MBA became plain sums:
  /// `(a + b) - 4*c + 5*c`): rewritten as sum c_i * x_i + c_0 when shorter. Exact: affine
  /// functions are equal when they agree at 0 and at every unit vector.
  bool simplifyAffine(llvm::Instruction *root, const Expression &expression) {
    if (!isAffine(expression) || expression.exclusiveNodes() < 3)
      return false;
    unsigned n = expression.leaves().size();
    std::vector<uint64_t> point(n, 0);
    uint64_t origin = expression.evaluate(point)[0];
    // Coefficients indexed by leaf sets as subsetSum takes them: only single leaves, and the
    // constant negated at index 0.
    std::vector<uint64_t> coefficients(1u << n, 0);
    coefficients[0] = 0 - origin;
    for (unsigned i = 0; i < n; ++i) {
      point.assign(n, 0);
      point[i] = 1;
      coefficients[1u << i] = expression.evaluate(point)[0] - origin;
    }
    std::vector<llvm::Value *> forced(expression.leaves().begin(), expression.leaves().end());
    CandidateBuilder build(expression, root);
    llvm::Value *candidate = build.subsetSum(coefficients, false);
    if (costOf(candidate, forced) >= expression.exclusiveNodes()) {
      discard(candidate);
      return false;
    }
    if (llvm::isa<llvm::Instruction>(candidate) && !llvm::is_contained(forced, candidate))
      candidate->takeName(root);
    root->replaceAllUsesWith(candidate);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(root);
    return true;
  }

  bool simplifyCollected(llvm::Instruction *root, std::optional<Expression> expression) {
    unsigned exclusive = expression->exclusiveNodes();
    if (exclusive < 2)
      return false;
    unsigned n = expression->leaves().size();
    unsigned width = root->getType()->getIntegerBitWidth();
    uint64_t mask = deobf::widthMask(width);
    std::vector<uint64_t> values(1u << n), signature(1u << n);
    for (unsigned point = 0; point < values.size(); ++point) {
      std::vector<uint64_t> leaves(n);
      for (unsigned i = 0; i < n; ++i)
        leaves[i] = (point >> i) & 1;
      values[point] = expression->evaluate(leaves)[0];
    }
    for (unsigned point = 0; point < values.size(); ++point)
      signature[point] = (values[point] - 2 * values[0]) & mask;
    bool linear = isLinearMba(*expression);

    // Leaves the DAG could look into (sums made leaves): the comparison keeps them leaves.
    std::vector<llvm::Value *> forced;
    for (llvm::Value *leaf : expression->leaves())
      if (deobf::isNode(leaf, deobf::ExpressionKind::Mba))
        forced.push_back(leaf);
    CandidateBuilder build(*expression, root);
    std::vector<llvm::Value *> candidates;
    std::set<uint64_t> distinct(signature.begin(), signature.end());
    if (distinct.size() <= 2) {
      uint64_t p = *distinct.begin(), q = *distinct.rbegin();
      uint64_t table = 0;
      for (unsigned point = 0; point < signature.size(); ++point)
        table |= uint64_t(signature[point] == q) << point;
      candidates.push_back(build.twoValued(table, p, q));
      if (p != q)
        candidates.push_back(build.twoValued(~table & deobf::fullTable(n), q, p));
    }
    candidates.push_back(build.subsetSum(subsetCoefficients(signature, n), false));
    if (!linear)
      candidates.push_back(build.subsetSum(subsetCoefficients(values, n), true));
    // A root that keeps only its low bits (`E & 63`, a shift amount) needs its polynomial only
    // modulo 2^bits: (4x ^ 60) + 3x + 4 is -x there, though no polynomial equals it on all
    // bits.
    if (unsigned bits = lowBitsKept(root); !linear && bits)
      candidates.push_back(build.lowBitsPolynomial(subsetCoefficients(values, n), bits));
    // Constants under bitwise operators, shifts and selects on a bit (InstCombine's forms of an
    // MBA with a constant operand): the per-bit form with masks.
    // Exact (no proof) only for a linear MBA with constants; the {0,1} candidates above are
    // not exact there.
    llvm::Value *exactMasked = nullptr;
    if (!linear)
      if (std::optional<std::vector<MaskedTerm>> terms = maskedTerms(*expression, width)) {
        candidates.push_back(build.masked(*terms, values[0]));
        if (isLinearMbaWithConstants(*expression))
          exactMasked = candidates.back();
      }

    // Cheapest first; of equal cost, the exact one (no proof to spend).
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](llvm::Value *a, llvm::Value *b) {
                       return std::pair(costOf(a, forced), a != exactMasked) <
                              std::pair(costOf(b, forced), b != exactMasked);
                     });
    llvm::Value *chosen = nullptr;
    unsigned rootMultiplications = multiplications(root, forced);
    for (llvm::Value *candidate : candidates) {
      unsigned cost = costOf(candidate, forced);
      bool simpler = cost < exclusive ||
                     (cost == exclusive && multiplications(candidate, forced) < rootMultiplications);
      if (chosen || !simpler ||
          !accept(root, candidate, linear || candidate == exactMasked, forced))
        continue;
      chosen = candidate;
    }
    // The chosen one takes the root's uses first: it may be a truncated leaf that only the
    // other candidates use, which discarding them would delete.
    if (chosen) {
      // A constant or a leaf keeps no name (a constant cannot have one).
      if (llvm::isa<llvm::Instruction>(chosen) &&
          !llvm::is_contained(expression->leaves(), chosen))
        chosen->takeName(root);
      root->replaceAllUsesWith(chosen);
    }
    // Candidates can share instructions (a truncated leaf) or be the same value: handles,
    // since discarding one may delete another.
    std::vector<llvm::WeakVH> unused;
    for (llvm::Value *candidate : candidates)
      if (candidate != chosen)
        unused.emplace_back(candidate);
    for (llvm::WeakVH &candidate : unused)
      if (candidate)
        discard(candidate);
    if (!chosen)
      return false;
    llvm::RecursivelyDeleteTriviallyDeadInstructions(root);
    return true;
  }

  /// Linear: exact by the theory (tests still guard against a bug). Otherwise a proof.
  bool accept(llvm::Instruction *root, llvm::Value *candidate, bool linear,
              llvm::ArrayRef<llvm::Value *> forced) {
    std::optional<Expression> pair = Expression::collect(
        {root, candidate}, deobf::ExpressionKind::Mba, MaxNodes * 3, MaxLeaves + 1, forced);
    if (!pair)
      return false;
    // Equal on the inputs the leaves can take: LLVM's known bits of a leaf (a zext'ed i1, a
    // masked value) make identities hold that do not over all words.
    pair->assumeKnownBits(root->getModule()->getDataLayout());
    if (linear)
      return deobf::testsAgree(*pair);
    if (!deobf::testsAgree(*pair))
      return false;
    if (std::optional<deobf::Verdict> verdict = deobf::decideByEnumeration(*pair, true))
      return verdict == deobf::Verdict::Proved;
    if (deobf::provedEqualAsPolynomials(*pair))
      return true;
    if (!deobf::haveZ3() || proofsLeft_ == 0)
      return false;
    --proofsLeft_;
    auto prove = [](const Expression &e) {
      return deobf::proveEqual(e, deobf::PassProofBackstopMs, deobf::PassProofResourceLimit);
    };
    return deobf::cachedProof(*pair, 'e', prove) == deobf::Verdict::Proved;
  }

  static void discard(llvm::Value *candidate) {
    if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(candidate))
      if (instruction->use_empty())
        llvm::RecursivelyDeleteTriviallyDeadInstructions(instruction);
  }

  unsigned &proofsLeft_;
  llvm::DominatorTree &dominators_;
};

} // namespace

llvm::PreservedAnalyses SimplifyMbaPass::run(llvm::Function &function,
                                             llvm::FunctionAnalysisManager &analyses) {
  // Operands before users: an inner MBA is simplified before the expression around it.
  std::vector<llvm::WeakVH> worklist;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if ((!instruction.getType()->isIntegerTy(1) &&
         deobf::isNode(&instruction, deobf::ExpressionKind::Mba) &&
         !llvm::isa<llvm::TruncInst>(instruction)) ||
        llvm::isa<llvm::ICmpInst>(instruction))
      worklist.emplace_back(&instruction);
  unsigned proofsLeft = ProofsPerFunction;
  // The pass changes no block, so the tree stays valid while it works.
  MbaSimplifier simplifier(proofsLeft, analyses.getResult<llvm::DominatorTreeAnalysis>(function));
  DeobfuscationCounts counts;
  for (llvm::WeakVH &handle : worklist)
    if (auto *instruction = llvm::dyn_cast_or_null<llvm::Instruction>(handle.operator llvm::Value *())) {
      auto *compare = llvm::dyn_cast<llvm::ICmpInst>(instruction);
      counts.mbaSimplified +=
          compare ? simplifier.simplifyComparison(compare) : simplifier.simplify(instruction);
    }
  if (!counts.mbaSimplified)
    return llvm::PreservedAnalyses::all();
  if (stats_)
    stats_->add(function.getName().str(), counts);
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace hoist
