// One round of the -O1 fixpoint (lib/Passes/Pipeline.cpp): Hoist's passes and the few LLVM
// passes that lifted code needs, in place of LLVM's whole O1 function simplification pipeline.
//
// Lifted IR is already in SSA form (the lifter keeps registers in values within a function) and
// little for loop rotation, unrolling or induction variables to do, no memcpy, no library
// calls; O1's loop passes but LICM, MemCpyOpt, SCCP, BDCE and LibCallsShrinkWrap found next to
// nothing there, while O1 ran InstCombine four times per round. Measured on the synthetic input and a sample of
// bash's functions (docs/PERFORMANCE.md, "The cleanup"), this round reaches the same
// instruction count as O1's fixpoint on the synthetic input and fewer on bash, in a fifth of the
// time.
#include "Passes/Passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/ADCE.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/Reassociate.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

namespace hoist {
namespace {

/// Runs `passes` only on functions that have a loop: the loop adaptor's own set-up (loop-simplify
/// and LCSSA form, MemorySSA) is not paid for the many lifted functions without one.
class IfLoopsPass : public llvm::PassInfoMixin<IfLoopsPass> {
public:
  explicit IfLoopsPass(llvm::FunctionPassManager passes) : passes_(std::move(passes)) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
    if (analyses.getResult<llvm::LoopAnalysis>(function).empty())
      return llvm::PreservedAnalyses::all();
    return passes_.run(function, analyses);
  }

private:
  llvm::FunctionPassManager passes_;
};

/// Runs `passes` only where the round has changed the function's instruction count so far.
class IfCountChangedPass : public llvm::PassInfoMixin<IfCountChangedPass> {
public:
  IfCountChangedPass(llvm::FunctionPassManager passes, ChangedInRound changedInRound)
      : passes_(std::move(passes)), changedInRound_(std::move(changedInRound)) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
    if (!changedInRound_(function))
      return llvm::PreservedAnalyses::all();
    return passes_.run(function, analyses);
  }

private:
  llvm::FunctionPassManager passes_;
  ChangedInRound changedInRound_;
};

} // namespace

void addCleanupRound(llvm::FunctionPassManager &passes, const Image *image, CleanupRound which,
                     const std::shared_ptr<FunctionVersions> &versions,
                     const ChangedInRound &changedInRound) {
  bool large = which == CleanupRound::Large;
  bool first = which == CleanupRound::First || large;
  // The later rounds leave out the passes before InstCombine but SROA: on the samples of
  // docs/PERFORMANCE.md ("The cleanup") they changed next to nothing after the first
  // round (Hoist's passes nothing, the first EarlyCSE 8 of 99 of bash's functions, the first
  // SimplifyCFG 4), and the same passes after InstCombine find the same: the optimized modules
  // are byte-identical without them, in 6 to 11% fewer machine instructions. The passes left out
  // go to a manager that never runs, so that each pass keeps its slot in `versions` (the k-th
  // pass of a type is the same pass in every round: lib/Passes/SkipUnchanged.h).
  llvm::FunctionPassManager leftOut;
  // In a later round, the passes after InstCombine run only where the round changed the
  // instruction count so far (below); until then they go to `passes` too.
  llvm::FunctionPassManager afterCount;
  llvm::FunctionPassManager *target = &passes;
  auto add = [&](auto pass) { addMaybeSkipped(*target, std::move(pass), versions); };
  auto addFirst = [&](auto pass) {
    addMaybeSkipped(first ? passes : leftOut, std::move(pass), versions);
  };
  // Allocas the round's first passes made (brightening's promoted stack) become values; the
  // callers' round passes run in every round, so SROA does too.
  add(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  // The lifter's own shapes first: flag formulas before InstCombine rewrites them, and the State
  // traffic around runtime calls, so that EarlyCSE forwards what is left.
  addHoistPasses(first ? passes : leftOut, image, versions);
  // Loads of State after stores of it, and the duplicates of the lifter's per-instruction address
  // arithmetic; this also drops most of the dead flag computations before InstCombine, the
  // costly pass, sees them. Without MemorySSA (its construction is a quarter of EarlyCSE's
  // cost): a load is forwarded only from an access with no write in between; the second EarlyCSE
  // below forwards across other writes with MemorySSA. On the samples of docs/PERFORMANCE.md
  // ("The cleanup") that is 7% fewer machine instructions and the same or smaller IR;
  // with neither EarlyCSE using MemorySSA the IR was up to 1.3% larger.
  addFirst(llvm::EarlyCSEPass(/*UseMemorySSA=*/false));
  // Once per round, as O1 runs it each time (one iteration, no fixpoint check). One iteration
  // reaches InstCombine's own fixpoint (LLVM's tests check that), so it is not run again on its
  // own output: in a later round it is skipped where it was the last pass to change the
  // function. On the samples of docs/PERFORMANCE.md ("The cleanup") the third round lost 6
  // instructions of bash's 43,873 by it, which PropagateBranchConstants more than made up for.
  addMaybeSkipped(passes,
                  llvm::InstCombinePass(
                      llvm::InstCombineOptions().setMaxIterations(1).setVerifyFixpoint(false)),
                  versions, /*settlesItself=*/true);
  // A later round whose InstCombine left the instruction count as it was stops there: the
  // passes after it found next to nothing then (InstCombine's rewrites that keep the count are
  // canonical forms: operand order, select of an add...). That is the whole later round on the
  // synthetic input, and 7% of the machine instructions of bash's sample's cleanup
  // (docs/PERFORMANCE.md, "The cleanup").
  if (!first && changedInRound)
    target = &afterCount;
  addFirst(llvm::SimplifyCFGPass(llvm::SimplifyCFGOptions().convertSwitchRangeToICmp(true)));
  // Shares the subexpressions of the flag formulas of one instruction (AF and OF both xor the
  // operands with the result), which InstCombine writes in different orders. In the first round
  // only: after it, Reassociate and InstCombine rewrite each other's operand order back and forth
  // in nearly every function (a change each round, so every pass after them ran again), and on
  // the samples of docs/PERFORMANCE.md ("The cleanup") the IR is as small or smaller
  // without it.
  if (first)
    add(llvm::ReassociatePass());
  // State fields a loop reads and writes become values carried by the loop (LICM's scalar
  // promotion: State does not alias guest memory), as O1's loop passes did; the interpreter
  // loops of the deobfuscation samples (tests/deobfuscate) shrink by a third with it. Once:
  // what the first round promoted stays promoted, and on a sample of bash's functions LICM in
  // the later rounds cost a tenth of the whole fixpoint and left the IR 0.05% larger than
  // without it (docs/PERFORMANCE.md, "The cleanup"). Not in a large function: its MemorySSA
  // walks cost a query per access up the function, for every loop.
  if (first && !large) {
    llvm::FunctionPassManager loops;
    loops.addPass(llvm::createFunctionToLoopPassAdaptor(
        llvm::LICMPass(llvm::LICMOptions()), /*UseMemorySSA=*/true));
    add(IfLoopsPass(std::move(loops)));
  }
  // What InstCombine and Reassociate made equal (address arithmetic InstCombine rewrote into
  // the same getelementptr, State loads SimplifyCFG brought into one block with their store),
  // and Hoist's passes again on what InstCombine left: a load whose other users are gone now
  // narrows, a flag formula InstCombine exposed folds. Without this the next round did it, and
  // one more round confirmed: on bash's functions the first round ends 7% larger without it.
  // A large function's without MemorySSA: each of its walks may go up the whole function.
  add(llvm::EarlyCSEPass(/*UseMemorySSA=*/!large));
  addHoistPasses(*target, image, versions);
  add(llvm::ADCEPass());
  // The branches and blocks ADCE left empty; on a sample of ls's and kernelbase.dll's functions
  // the round's fixpoint was 0.5 to 1% larger than O1's without this, as small with it.
  add(llvm::SimplifyCFGPass(llvm::SimplifyCFGOptions().convertSwitchRangeToICmp(true)));
  if (target == &afterCount)
    passes.addPass(IfCountChangedPass(std::move(afterCount), changedInRound));
}

} // namespace hoist
