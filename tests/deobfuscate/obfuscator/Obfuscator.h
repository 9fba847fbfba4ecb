// The in-tree test obfuscator (issue 10): a clang-19 pass plugin that protects chosen C
// functions the way OLLVM-style obfuscators do, so that Hoist's deobfuscation passes have
// something to undo. Written for Hoist's tests; every transformation keeps the function's
// meaning and is deterministic for a given seed. docs/DEOBFUSCATE.md describes it.
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>

#include <functional>

#include <cstdint>

namespace obfuscator {

/// splitmix64: small, seedable, the same sequence on every host.
class Random {
public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// A value in [0, bound).
  uint64_t below(uint64_t bound) { return next() % bound; }

private:
  uint64_t state_;
};

/// Rewrites every integer binary operator (wider than i1) that was in `function` before the
/// call: `rewrite` builds the replacement in front of it, or returns null to keep it.
bool rewriteIntegerOperators(
    llvm::Function &function,
    const std::function<llvm::Value *(llvm::IRBuilder<> &, llvm::BinaryOperator &)> &rewrite);

/// a + b, a - b, a & b, a | b, a ^ b become equivalent but longer forms (a - (-b), ...).
bool substituteInstructions(llvm::Function &function, Random &random);

/// The same operators become linear mixed boolean-arithmetic expressions (a linear
/// combination of bitwise terms plus identities that sum to zero); a * b becomes a
/// polynomial MBA, and some linear encodings get a zero identity multiplied by a variable.
bool encodeMba(llvm::Function &function, Random &random);

/// Blocks are split and guarded by opaque predicates over the function's integer arguments
/// (x*(x+1) is even, 7y^2-1 != x^2, x^2 mod 4 != 2); the side never taken is an altered copy
/// of the block that jumps back into it.
bool addBogusControlFlow(llvm::Function &function, Random &random);

/// Control-flow flattening: every block becomes a case of one dispatcher that switches on a
/// state variable in a stack slot; each block sets the state of its successor (a select for
/// conditional branches) and jumps back through a common latch block.
bool flattenControlFlow(llvm::Function &function, Random &random);

} // namespace obfuscator
