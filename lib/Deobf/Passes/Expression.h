// Integer expression DAGs over LLVM values, for the deobfuscation passes (docs/DEOBFUSCATE.md):
// the instructions that compute one or more roots from a few leaves (arguments, loads, phis,
// anything the DAG does not look into), evaluated on concrete leaf values. MBA simplification
// evaluates them on {0,1} and random words; opaque-predicate folding on the low bits only.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Instruction.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace hoist::deobf {

/// Which instructions a DAG looks into; everything else is a leaf.
enum class ExpressionKind {
  /// add, sub, mul, and, or, xor, shl by a constant, trunc, and select on a truncated bit
  /// (of a value at least as wide): the operators of MBA. Extensions and right shifts are
  /// leaves, so every leaf is at least as wide as the roots.
  Mba,
  /// The same plus zext and sext: operators whose low k result bits depend only on the low k
  /// bits of their operands, for any k.
  LowBits,
  /// LowBits plus integer compares and right shifts by a constant: branch conditions, which
  /// the concolic lifter proves constant (no low-bit reasoning applies to them).
  Condition,
  /// Condition plus selects on any condition: a value that depends on another only through
  /// comparisons (StepFunction.cpp).
  Comparisons,
};

/// Whether a DAG of `kind` looks into `value` (else it is a leaf or a constant).
bool isNode(const llvm::Value *value, ExpressionKind kind);

/// add, sub, mul, shl, and `or disjoint`: InstCombine writes an add of values that share no
/// bit that way, and a DAG reads it as the add (which refines it: the or is poison when the
/// operands share a bit), so an MBA stays linear through it.
bool isArithmeticNode(const llvm::Instruction *node);
/// and, xor, and or other than `or disjoint`.
bool isBitwiseNode(const llvm::Instruction *node);

class Expression {
public:
  /// The DAG under `roots` (integers of at most 64 bits); nullopt when it has more than
  /// `maxNodes` instructions or `maxLeaves` leaves, or a root is not such an integer.
  /// Values in `forcedLeaves` are leaves even where the DAG would look into them.
  static std::optional<Expression> collect(llvm::ArrayRef<llvm::Value *> roots, ExpressionKind kind,
                                           unsigned maxNodes, unsigned maxLeaves,
                                           llvm::ArrayRef<llvm::Value *> forcedLeaves = {});

  /// Arithmetic nodes (add, sub, mul, shl) that are operands of bitwise nodes: as leaves, they
  /// make a DAG such as ((x+y) ^ z) + 2*((x+y) & z) a linear MBA over x+y and z.
  std::vector<llvm::Value *> arithmeticUnderBitwise() const;

  const std::vector<llvm::Value *> &leaves() const { return leaves_; }
  const std::vector<llvm::Instruction *> &nodes() const { return nodes_; }
  llvm::Value *root(unsigned i) const { return roots_[i]; }

  /// The roots' values (each masked to its width) when leaf i is leafValues[i] (masked to the
  /// leaf's width).
  std::vector<uint64_t> evaluate(llvm::ArrayRef<uint64_t> leafValues) const;

  /// Restricts the leaves to the values LLVM's known-bits analysis allows them (a zext'ed i1
  /// is 0 or 1, `and x, 7` below 8): test points respect it (leafInput), Z3 assumes it, and
  /// few unknown bits in all make every input enumerable. Without it, every leaf value counts.
  void assumeKnownBits(const llvm::DataLayout &layout);

  /// Bits of leaf i known zero / known one (0 when nothing is assumed).
  uint64_t knownZero(unsigned leaf) const { return knownZero_.empty() ? 0 : knownZero_[leaf]; }
  uint64_t knownOne(unsigned leaf) const { return knownOne_.empty() ? 0 : knownOne_[leaf]; }

  /// `value` with leaf i's known bits set as known: an input the leaf can take.
  uint64_t leafInput(unsigned leaf, uint64_t value) const {
    return (value & ~knownZero(leaf)) | knownOne(leaf);
  }

  /// The leaves' bits not known, in all: 2^unknownBits() inputs are every input.
  unsigned unknownBits() const;

  /// Instructions of the DAG that only the DAG uses (besides root 0): what replacing root 0
  /// deletes.
  unsigned exclusiveNodes() const;

  /// True when some node mixes arithmetic (add, sub, mul, shl) with bitwise operators
  /// (and, or, xor) anywhere in the DAG: only then is there MBA to simplify.
  bool mixesArithmeticAndBitwise() const;

private:
  uint64_t valueOf(llvm::Value *value, const std::vector<uint64_t> &nodeValues,
                   llvm::ArrayRef<uint64_t> leafValues) const;

  std::vector<llvm::Value *> roots_;
  std::vector<llvm::Value *> leaves_;
  std::vector<llvm::Instruction *> nodes_;   ///< operands before users
  llvm::DenseMap<llvm::Value *, unsigned> leafIndex_, nodeIndex_;
  std::vector<uint64_t> knownZero_, knownOne_;   ///< per leaf, when assumed
};

/// Bits set below `width` (width 1..64).
inline uint64_t widthMask(unsigned width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

} // namespace hoist::deobf
