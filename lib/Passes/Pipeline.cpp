// The optimization pipeline of `hoist lift -O1/-O2/-O3`: a fixpoint of LLVM's O1 function
// simplification and Hoist's own passes, then LLVM's O2 or O3 (include/hoist/Optimize.h).
//
// One O1 round leaves work behind on lifted code: a folded image load exposes a constant jump
// target or another load address, a folded flag formula lets InstCombine merge the compare it
// feeds, and those in turn let GVN forward more State traffic. Repeating until the instruction
// count is stable collects these; the budget bounds the cost on code that keeps oscillating.
#include "hoist/Optimize.h"
#include "Passes/Passes.h"
#include "Deobf/Passes/DeobfPasses.h"

#include <llvm/IR/InstIterator.h>
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

/// The instructions of the functions the fixpoint works on: with a selection, only those (a
/// module of thousands of functions is not recounted for each SCC brightening optimizes).
uint64_t countWorkedOn(const llvm::Module &module, const OptimizeOptions &options) {
  if (!options.selectFunctions)
    return countInstructions(module);
  uint64_t count = 0;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() && options.selectFunctions(function))
      count += function.getInstructionCount();
  return count;
}

} // namespace

OptimizeReport optimizeModule(llvm::Module &module, const Image *image,
                              const OptimizeOptions &options) {
  OptimizeReport report;
  report.instructionsBefore = countWorkedOn(module, options);
  report.instructionsAfter = report.instructionsBefore;
  if (options.level == 0)
    return report;

  PassSetup setup(image, options.registerAnalyses);
  llvm::PassBuilder &builder = setup.builder;

  auto start = std::chrono::steady_clock::now();
  llvm::FunctionPassManager round;
  if (options.deobfuscate)
    addDeobfuscationPasses(round, options.deobfuscationStats);
  if (options.addRoundPasses)
    options.addRoundPasses(round);
  addHoistPasses(round, image);
  round.addPass(builder.buildFunctionSimplificationPipeline(llvm::OptimizationLevel::O1,
                                                            llvm::ThinOrFullLTOPhase::None));
  llvm::ModulePassManager fixpoint;
  if (options.selectFunctions)
    fixpoint.addPass(SelectedFunctionsPass(std::move(round), options.selectFunctions));
  else
    fixpoint.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(round)));
  uint64_t previous = report.instructionsBefore;
  for (unsigned i = 0; i < options.maxFixpointRounds; ++i) {
    fixpoint.run(module, setup.modules);
    uint64_t count = countWorkedOn(module, options);
    report.instructionsPerRound.push_back(count);
    if (count == previous)
      break;
    previous = count;
  }
  report.fixpointMs = millisecondsSince(start);

  if (options.level >= 2) {
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
