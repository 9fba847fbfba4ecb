// The deobfuscation passes of `hoist lift --deobfuscate` (docs/DEOBFUSCATE.md), one per
// file, each undoing one kind of protection in lifted (and usually brightened) IR: MBA
// expressions, opaque predicates, flattened control flow. They run in every round of the
// optimization fixpoint (lib/Passes/Pipeline.cpp) when the caller plugs them in
// (deobfuscationRoundPasses): the pipeline itself does not know them.
#pragma once

#include "hoist/Optimize.h"

#include <llvm/IR/PassManager.h>
#include <llvm/Support/JSON.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace llvm {
class PassBuilder;
}

namespace hoist {

/// What the passes did to one function.
struct DeobfuscationCounts {
  uint64_t mbaSimplified = 0;          ///< expressions replaced by a shorter equal one
  uint64_t branchesFolded = 0;         ///< conditional branches found constant
  uint64_t dispatchersUnflattened = 0; ///< dispatchers whose state edges were all threaded
  uint64_t edgesThreaded = 0;          ///< predecessor edges sent straight to their case

  DeobfuscationCounts &operator+=(const DeobfuscationCounts &other);
  /// The `passes` part of a function's `deobfuscation` record in the diagnostics JSON.
  llvm::json::Object toJSON() const;
};

/// Counts per function name, summed over the fixpoint's rounds.
class DeobfuscationPassStats {
public:
  void add(const std::string &function, const DeobfuscationCounts &counts);
  std::map<std::string, DeobfuscationCounts> byFunction() const;

private:
  mutable std::mutex mutex_;
  std::map<std::string, DeobfuscationCounts> byFunction_;
};

/// Linear MBA rewritten exactly through its signature vector; non-linear and polynomial ones
/// when a candidate from the signature is proved equal (testing, then Z3).
class SimplifyMbaPass : public llvm::PassInfoMixin<SimplifyMbaPass> {
public:
  explicit SimplifyMbaPass(DeobfuscationPassStats *stats = nullptr) : stats_(stats) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);

private:
  DeobfuscationPassStats *stats_;
};

/// Conditional branches whose condition is constant (low-bit enumeration for parity and
/// modular opaque predicates, known bits and ranges, Z3) go one way; the dead edge is removed.
class FoldOpaquePredicatesPass : public llvm::PassInfoMixin<FoldOpaquePredicatesPass> {
public:
  explicit FoldOpaquePredicatesPass(DeobfuscationPassStats *stats = nullptr) : stats_(stats) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);

private:
  DeobfuscationPassStats *stats_;
};

/// A dispatcher block that switches (or branches through a tree of compares) on a state
/// phi: each predecessor that sets a constant state (or a select of two) jumps to its case.
class UnflattenPass : public llvm::PassInfoMixin<UnflattenPass> {
public:
  explicit UnflattenPass(DeobfuscationPassStats *stats = nullptr) : stats_(stats) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);

private:
  DeobfuscationPassStats *stats_;
};

/// Adds the three passes, in the order a fixpoint round runs them.
void addDeobfuscationPasses(llvm::FunctionPassManager &passes, DeobfuscationPassStats *stats);

/// The three passes as a group of the optimization's fixpoint rounds
/// (OptimizeOptions::roundPasses), counting what they do in `stats` when it is set.
AddPasses deobfuscationRoundPasses(DeobfuscationPassStats *stats);

/// Their names for textual pipelines (`hoist-opt -passes=simplify-mba`): simplify-mba,
/// fold-opaque-predicates, unflatten.
void registerDeobfuscationPasses(llvm::PassBuilder &builder);

} // namespace hoist
