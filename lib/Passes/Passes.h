// Hoist's own LLVM passes (new pass manager), one per file. Each rewrites a shape the lifter
// produces that LLVM's own pipeline leaves alone; docs/OPTIMIZE.md says which and why.
#pragma once

#include "Passes/SkipUnchanged.h"

#include <functional>
#include <memory>

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>

namespace hoist {

class Image;

/// What a Hoist pass preserves: everything when it changed nothing, else the CFG (none of them
/// adds, removes or redirects a block).
inline llvm::PreservedAnalyses preservedAfter(bool changed) {
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

/// A load from a constant address inside read-only image memory becomes the bytes it reads.
class FoldImageLoadsPass : public llvm::PassInfoMixin<FoldImageLoadsPass> {
public:
  explicit FoldImageLoadsPass(const Image &image) : image_(image) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);

private:
  const Image &image_;
};

/// `trunc (load iN p)` with no other user of the load becomes a narrower load of p.
class NarrowTruncLoadsPass : public llvm::PassInfoMixin<NarrowTruncLoadsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

/// Status-flag formulas of a subtraction (SF != OF, SF == OF, OF, ZF) become the comparison the
/// source made: `icmp slt/sge/eq/ne a, b`, or the overflow bit of `llvm.ssub.with.overflow`.
class FoldFlagIdiomsPass : public llvm::PassInfoMixin<FoldFlagIdiomsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

/// State stores nothing observes and State loads that read back a value stored before a
/// runtime call (cpuid, rdtsc, ...) whose State effects are known.
class DeadStateStoresPass : public llvm::PassInfoMixin<DeadStateStoresPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

/// Where a branch tests `x == C` (or `!=`), uses of x the equal edge dominates become C, and
/// the instructions that makes constant fold.
class PropagateBranchConstantsPass : public llvm::PassInfoMixin<PropagateBranchConstantsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

/// Makes the passes above known to `builder` by name (`fold-image-loads`, `narrow-trunc-loads`,
/// `fold-flag-idioms`, `dead-state-stores`) for textual pipelines. fold-image-loads needs `image`; without one the
/// name is not registered.
void registerHoistPasses(llvm::PassBuilder &builder, const Image *image);

/// LLVM's pass builder with Hoist's passes registered by name and the four analysis managers
/// registered and cross-wired, ready to build and run pipelines. `registerAnalyses`, when set,
/// registers function analyses first (an alias analysis pipeline replaces LLVM's default).
struct PassSetup {
  explicit PassSetup(const Image *image,
                     const std::function<void(llvm::PassBuilder &, llvm::FunctionAnalysisManager &)>
                         &registerAnalyses = nullptr);
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgsccs;
  llvm::ModuleAnalysisManager modules;
  /// LLVM's passes skip `optnone` functions only through this instrumentation (the
  /// optimizer's large functions, OptimizeOptions::largeFunctionInstructions).
  llvm::PassInstrumentationCallbacks instrumentation;
  llvm::OptNoneInstrumentation optNone{/*DebugLogging=*/false};
  llvm::PassBuilder builder{nullptr, llvm::PipelineTuningOptions(), std::nullopt,
                            &instrumentation};
};

/// Adds `pass` to `passes`; with `versions`, skipped on functions it left unchanged before and
/// nothing changed since, or with `settlesItself` on its own output (lib/Passes/SkipUnchanged.h).
template <typename PassT>
void addMaybeSkipped(llvm::FunctionPassManager &passes, PassT pass,
                     const std::shared_ptr<FunctionVersions> &versions,
                     bool settlesItself = false) {
  if (versions)
    passes.addPass(SkipUnchangedPass<PassT>(std::move(pass), versions, /*alwaysRun=*/false,
                                            settlesItself));
  else
    passes.addPass(std::move(pass));
}

/// Adds every Hoist pass to `passes`, in the order one fixpoint round runs them; with `versions`,
/// each is skipped where it would find nothing new (addMaybeSkipped).
void addHoistPasses(llvm::FunctionPassManager &passes, const Image *image,
                    const std::shared_ptr<FunctionVersions> &versions = nullptr);

/// Which of the fixpoint's rounds addCleanupRound builds. `Large` is the first round for a
/// function past OptimizeOptions::largeFunctionInstructions: without LICM and without
/// MemorySSA, whose queries grow with the function's size each (include/hoist/Optimize.h).
enum class CleanupRound { First, Later, Large };

/// Whether the round running now has changed a function's instruction count so far.
using ChangedInRound = std::function<bool(const llvm::Function &)>;

/// Adds one round of the -O1 fixpoint: Hoist's passes and the LLVM passes lifted code needs
/// (lib/Passes/CleanupRound.cpp says which and why). Only the first round reassociates and
/// promotes State out of loops (LICM). With `changedInRound`, a later round runs the passes
/// after InstCombine only where it says yes.
void addCleanupRound(llvm::FunctionPassManager &passes, const Image *image, CleanupRound which,
                     const std::shared_ptr<FunctionVersions> &versions = nullptr,
                     const ChangedInRound &changedInRound = nullptr);

} // namespace hoist
