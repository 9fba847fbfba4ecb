// The optimization pipeline of `hoist lift -O1/-O2/-O3`: a fixpoint of Hoist's cleanup round
// (lib/Passes/CleanupRound.cpp: Hoist's passes and the LLVM passes lifted code needs), then
// LLVM's O2 or O3 (include/hoist/Optimize.h).
//
// One round leaves work behind on lifted code: a folded image load exposes a constant jump
// target or another load address, a folded flag formula lets InstCombine merge the compare it
// feeds, and those in turn let EarlyCSE forward more State traffic. Each function is repeated
// until its instruction count is stable; a function that is stable is not run again (the passes
// are function-local), so the round that confirms the fixpoint runs only on the functions the
// round before changed. The budget bounds the cost on code that keeps oscillating.
#include "hoist/Optimize.h"
#include "Passes/Passes.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Passes/PassBuilder.h>

#include <chrono>

namespace hoist {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Runs a function pipeline over the functions `select` accepts, as LLVM's module-to-function
/// adaptor does over all of them.
class SelectedFunctionsPass : public llvm::PassInfoMixin<SelectedFunctionsPass> {
public:
  SelectedFunctionsPass(llvm::FunctionPassManager passes,
                        std::function<bool(const llvm::Function &)> select)
      : passes_(std::move(passes)), select_(std::move(select)) {}

  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &analyses) {
    llvm::FunctionAnalysisManager &functions =
        analyses.getResult<llvm::FunctionAnalysisManagerModuleProxy>(module).getManager();
    llvm::PreservedAnalyses preserved = llvm::PreservedAnalyses::all();
    for (llvm::Function &function : module) {
      if (function.isDeclaration() || !select_(function))
        continue;
      llvm::PreservedAnalyses after = passes_.run(function, functions);
      functions.invalidate(function, after);
      preserved.intersect(std::move(after));
    }
    preserved.preserveSet<llvm::AllAnalysesOn<llvm::Function>>();
    return preserved;
  }

private:
  llvm::FunctionPassManager passes_;
  std::function<bool(const llvm::Function &)> select_;
};

} // namespace

uint64_t countInstructions(const llvm::Module &module) {
  uint64_t count = 0;
  for (const llvm::Function &function : module)
    count += function.getInstructionCount();
  return count;
}

namespace {

/// Whether the fixpoint works on `function`: with a selection, only on those it accepts (a module
/// of thousands of functions is not recounted for each SCC brightening optimizes).
bool workedOn(const llvm::Function &function, const OptimizeOptions &options) {
  return !function.isDeclaration() &&
         (!options.selectFunctions || options.selectFunctions(function));
}

/// The instructions of the functions the fixpoint works on.
uint64_t countWorkedOn(const llvm::Module &module, const OptimizeOptions &options) {
  if (!options.selectFunctions)
    return countInstructions(module);
  uint64_t count = 0;
  for (const llvm::Function &function : module)
    if (workedOn(function, options))
      count += function.getInstructionCount();
  return count;
}

/// The functions a fixpoint round still runs on, each with its instruction count before it.
using ChangingFunctions = llvm::DenseMap<const llvm::Function *, uint64_t>;

ChangingFunctions allWorkedOn(const llvm::Module &module, const OptimizeOptions &options) {
  ChangingFunctions changing;
  for (const llvm::Function &function : module)
    if (workedOn(function, options))
      changing[&function] = function.getInstructionCount();
  return changing;
}

/// The instructions of the functions the fixpoint works on, from allWorkedOn's counts.
uint64_t totalOf(const ChangingFunctions &functions) {
  uint64_t count = 0;
  for (const auto &entry : functions)
    count += entry.second;
  return count;
}

/// After a round: drops the functions whose instruction count it left as it was (they are at
/// their fixpoint) and records the others' new counts. Returns the change of the total count.
int64_t settleRound(ChangingFunctions &changing) {
  int64_t delta = 0;
  llvm::SmallVector<const llvm::Function *, 64> stable;
  for (auto &[function, count] : changing) {
    uint64_t now = function->getInstructionCount();
    if (now == count)
      stable.push_back(function);
    delta += static_cast<int64_t>(now) - static_cast<int64_t>(count);
    count = now;
  }
  for (const llvm::Function *function : stable)
    changing.erase(function);
  return delta;
}

} // namespace

OptimizeReport optimizeModule(llvm::Module &module, const Image *image,
                              const OptimizeOptions &options) {
  OptimizeReport report;
  if (options.level == 0) {
    report.instructionsBefore = report.instructionsAfter = countWorkedOn(module, options);
    return report;
  }
  // One walk gives the functions to work on and, summed, the count before.
  ChangingFunctions changing = allWorkedOn(module, options);
  report.instructionsBefore = totalOf(changing);

  PassSetup setup(image, options.registerAnalyses);
  llvm::PassBuilder &builder = setup.builder;

  auto start = std::chrono::steady_clock::now();
  // Passes are not run again on a function they left as it is while nothing changed it since
  // (lib/Passes/SkipUnchanged.h): the same IR, less work, above all in the round that confirms
  // the fixpoint. The callers' round passes always run (they may read other functions), but
  // what they change is recorded.
  auto versions = std::make_shared<FunctionVersions>();
  // `changing` holds each function's count before the round (settleRound keeps it so).
  ChangedInRound changedInRound = [&changing](const llvm::Function &function) {
    auto found = changing.find(&function);
    return found == changing.end() || found->second != function.getInstructionCount();
  };
  auto roundPasses = [&](CleanupRound which) {
    llvm::FunctionPassManager round;
    versions->startRound();
    for (const AddPasses &addPasses : options.roundPasses) {
      llvm::FunctionPassManager added;
      addPasses(added);
      round.addPass(SkipUnchangedPass(std::move(added), versions, /*alwaysRun=*/true));
    }
    addCleanupRound(round, image, which, versions, changedInRound);
    return round;
  };
  // Functions past the size limit get rounds of their own, cheaper, and fewer.
  llvm::DenseSet<const llvm::Function *> large;
  if (options.largeFunctionInstructions)
    for (const auto &[function, instructions] : changing)
      if (instructions > options.largeFunctionInstructions) {
        large.insert(function);
        report.largeFunctions.emplace_back(function, instructions);
      }
  llvm::sort(report.largeFunctions, [](const auto &a, const auto &b) {
    return a.first->getName() < b.first->getName();
  });
  auto onChanging = [&changing, &large](const llvm::Function &function) {
    return changing.count(&function) > 0 && !large.contains(&function);
  };
  auto onLargeChanging = [&changing, &large](const llvm::Function &function) {
    return changing.count(&function) > 0 && large.contains(&function);
  };
  llvm::ModulePassManager firstRound, laterRound, largeRound;
  firstRound.addPass(SelectedFunctionsPass(roundPasses(CleanupRound::First), onChanging));
  laterRound.addPass(SelectedFunctionsPass(roundPasses(CleanupRound::Later), onChanging));
  if (!large.empty())
    largeRound.addPass(SelectedFunctionsPass(roundPasses(CleanupRound::Large), onLargeChanging));
  uint64_t count = report.instructionsBefore;
  for (unsigned i = 0; i < options.maxFixpointRounds && !changing.empty(); ++i) {
    report.functionsPerRound.push_back(changing.size());
    versions->startCounting(i + 1);
    (i == 0 ? firstRound : laterRound).run(module, setup.modules);
    if (i < options.largeFunctionRounds)
      largeRound.run(module, setup.modules);
    if (i == 0 && options.afterFirstRound) {
      options.afterFirstRound();
      // It may have changed the module outside these managers: nothing cached holds, and every
      // function may simplify further with what it learned.
      setup.loops.clear();
      setup.functions.clear();
      setup.cgsccs.clear();
      setup.modules.clear();
      versions->forgetAll();
      changing = allWorkedOn(module, options);
      count = totalOf(changing);
    } else {
      count += settleRound(changing);
    }
    if (i + 1 >= options.largeFunctionRounds)
      for (const llvm::Function *function : large)
        changing.erase(function);
    report.instructionsPerRound.push_back(count);
  }
  report.fixpointMs = millisecondsSince(start);
  report.passActivity = versions->activity();

  if (options.level >= 2) {
    // LLVM's pipeline leaves a large function as it is: GVN, DSE and MemCpyOpt query alias
    // analysis per access up the function too, and code generation at -O0 allocates its
    // registers in time linear in its size. `optnone` needs `noinline`; the function is large
    // enough that inlining it would not have paid anyway.
    for (const auto &[function, instructions] : report.largeFunctions) {
      auto *mutableFunction = const_cast<llvm::Function *>(function);
      mutableFunction->addFnAttr(llvm::Attribute::OptimizeNone);
      mutableFunction->addFnAttr(llvm::Attribute::NoInline);
      mutableFunction->removeFnAttr(llvm::Attribute::AlwaysInline);
    }
    start = std::chrono::steady_clock::now();
    llvm::ModulePassManager final = builder.buildPerModuleDefaultPipeline(
        options.level >= 3 ? llvm::OptimizationLevel::O3 : llvm::OptimizationLevel::O2);
    final.run(module, setup.modules);
    report.finalMs = millisecondsSince(start);
  }
  report.instructionsAfter = countWorkedOn(module, options);
  return report;
}

} // namespace hoist
