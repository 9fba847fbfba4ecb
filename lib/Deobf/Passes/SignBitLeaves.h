// Right shifts of one value's sign, as MBA leaves (docs/DEOBFUSCATE.md): InstCombine writes
// zext(x < 0) as `lshr x, w-1`, its negation as `ashr x, w-1` and that shifted left by k as
// `and (ashr x, w-1-k), -2^k`. To an MBA these are unrelated leaves, though all are the one
// bit b = `lshr x, w-1`; written over b (b, 0 - b, (0 - b) << k), the MBA has one leaf of one
// unknown bit in their place, which simplification can enumerate. Likewise two right shifts of
// one value by different amounts, where what is read of one is the other shifted left
// (`and (lshr k, 1), -8` is `(lshr k, 2) << 1` there), also when both are zero-extended; and a
// zero extension of a piece of x beside the zero extension z of x itself, which is the same
// piece of z (`zext (n & -4)` is `z & 0xfffffffc`).
#pragma once

#include "Deobf/Passes/Expression.h"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/ValueHandle.h>

#include <vector>

namespace hoist::deobf {

/// The lowest bit the users of `shift` read: every user an and with a constant mask, the
/// fewest trailing zeros of those masks; 0 when some user reads it whole.
unsigned lowestBitRead(const llvm::Instruction *shift);

/// The leaves of one DAG rewritten over sign bits, until undone.
class SignBitLeaves {
public:
  /// Rewrites every leaf of `expression` that is a right shift by a constant of some x whose
  /// users see only bits that are another leaf's (a right shift of x by more) or copies of
  /// x's sign (`ashr x, w-1`, or an and with a mask clearing the bits below), reusing a
  /// `lshr x, w-1` that can replace it. Returns whether any was rewritten.
  bool expose(const Expression &expression, const llvm::DominatorTree &dominators);

  /// Deletes the shifts nothing reads any more (the rewrite stays).
  void commit();

  /// Puts the shifts back and deletes what `expose` added (what simplification did not take).
  void undo();

private:
  /// `zext (lshr x, a)` or `zext (and (lshr x, a), mask)` as another leaf `zext (lshr x, b)`
  /// shifted left (and masked), where the bits read are that leaf's (a < b <= a + the lowest
  /// bit read, the mask's trailing zeros counting as unread).
  bool exposeExtended(const Expression &expression, llvm::ZExtInst *extended,
                      const llvm::DominatorTree &dominators);

  /// `zext (f(x))` as f over another leaf `zext x` (zext distributes over f's and, or, xor
  /// and non-wrapping add, sub, mul, shl): `zext (n & -4)` is `(zext n) & 0xfffffffc`.
  bool exposeWidened(const Expression &expression, llvm::ZExtInst *extended,
                     const llvm::DominatorTree &dominators);

  struct Rewrite {
    llvm::Instruction *shift;            ///< the leaf, kept until the rewrite is final
    llvm::WeakVH replacement;            ///< its value over the sign bit
    std::vector<llvm::WeakVH> created;   ///< instructions added, users last
  };
  std::vector<Rewrite> rewrites_;
};

} // namespace hoist::deobf
