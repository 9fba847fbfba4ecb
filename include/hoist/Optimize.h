// Optimizing lifted IR: Hoist's pipeline (lib/Passes/Pipeline.cpp, docs/OPTIMIZE.md).
//
// -O0 leaves the module as it is. -O1 repeats Hoist's cleanup round (Hoist's own passes and the
// LLVM passes lifted code needs, lib/Passes/CleanupRound.cpp) on each function until its
// instruction count stops changing, within a round budget. -O2 and -O3 run that fixpoint, then LLVM's O2 or O3 module pipeline.
#pragma once

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class PassBuilder;
}

namespace hoist {

class Image;

/// Adds function passes to a pass manager: the plug-in point of the fixpoint rounds
/// (OptimizeOptions::roundPasses).
using AddPasses = std::function<void(llvm::FunctionPassManager &)>;

struct OptimizeOptions {
  unsigned level = 2;              ///< 0 to 3, as -O0 to -O3
  unsigned maxFixpointRounds = 8;  ///< budget: cleanup rounds before giving up
  /// A function with more IR instructions than this when the optimization starts gets a
  /// cheaper pipeline, whose work grows with its size rather than faster: at most
  /// `largeFunctionRounds` rounds without LICM and without MemorySSA, and LLVM's O2/O3 leave it
  /// as it is (`optnone`, which also makes code generation's own work linear). Lifted code
  /// has functions that large where a compiler inlined a whole program into `main` (csmith's
  /// programs); the largest of bash's, sed's and find's are 23,000, 15,000 and 9,000 at -O0.
  /// OptimizeReport::largeFunctions lists them; 0: no limit.
  uint64_t largeFunctionInstructions = 40000;
  unsigned largeFunctionRounds = 2;
  /// Passes that run first in every fixpoint round, one group after the other, each before
  /// Hoist's cleanup: the callers plug theirs in here (deobfuscation's MBA, opaque-predicate
  /// and unflattening passes, lib/Deobf/Passes/DeobfPasses.h; brightening's PromoteStack; a
  /// library user's own). A group always runs, and the round counts what it changes.
  std::vector<AddPasses> roundPasses = {};
  /// When set, the fixpoint rounds optimize only the functions it accepts (brightening's
  /// probes of one call-graph SCC) and leave the others as they are, and the report counts
  /// only their instructions; -O2/-O3 still run on the whole module.
  std::function<bool(const llvm::Function &)> selectFunctions = nullptr;
  /// Registers function analyses before LLVM's own (translation's alias analysis of calls
  /// between lifted functions, lib/Translate/LiftedCallEffects.h).
  std::function<void(llvm::PassBuilder &, llvm::FunctionAnalysisManager &)> registerAnalyses =
      nullptr;
  /// Runs once the first fixpoint round is done, before the others (translation summarizes
  /// what each function does to State there, once the round dropped the stores of undefined
  /// values the lifter leaves).
  std::function<void()> afterFirstRound = nullptr;
};

/// What one pass of the cleanup round did in one fixpoint round, over the functions it ran on.
struct PassActivity {
  /// Its type and which of that type in the round: "EarlyCSEPass#1", "hoist::FoldFlagIdiomsPass#0".
  std::string pass;
  unsigned round = 0;    ///< 1 for the first fixpoint round
  uint64_t ran = 0;      ///< functions it ran on
  uint64_t changed = 0;  ///< of which it changed
  uint64_t skipped = 0;  ///< functions it was not run on: it had left them as they are
};

struct OptimizeReport {
  uint64_t instructionsBefore = 0;
  /// The module's instruction count after each fixpoint round, in order.
  std::vector<uint64_t> instructionsPerRound;
  /// The number of functions each fixpoint round ran on (those the round before changed).
  std::vector<uint64_t> functionsPerRound;
  /// Per fixpoint round, what each pass of the round did.
  std::vector<PassActivity> passActivity;
  uint64_t instructionsAfter = 0;
  /// The functions that got the cheaper pipeline (OptimizeOptions::largeFunctionInstructions),
  /// with their instruction counts before.
  std::vector<std::pair<const llvm::Function *, uint64_t>> largeFunctions;
  double fixpointMs = 0;   ///< the O1 + own passes rounds
  double finalMs = 0;      ///< LLVM's O2/O3 after the fixpoint
};

/// Optimizes every function of `module`. `image` is the binary the module was lifted from, for
/// folding loads from its read-only memory; without it those loads stay.
OptimizeReport optimizeModule(llvm::Module &module, const Image *image,
                              const OptimizeOptions &options);

/// The number of instructions in all functions of `module`.
uint64_t countInstructions(const llvm::Module &module);

} // namespace hoist
