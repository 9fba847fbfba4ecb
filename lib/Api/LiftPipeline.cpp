#include "Api/LiftPipeline.h"

#include "Passes/LargeFunctionNotes.h"

#include "Brighten/Brighten.h"
#include "Brighten/Initializers.h"
#include "Passes/TidyOutput.h"
#include "Support/Error.h"
#include "Support/TimeBudget.h"
#include "hoist/Optimize.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace hoist {
namespace {

/// Times a phase when there is a profile to time it for.
class PhaseTimer {
public:
  PhaseTimer(PhaseProfile *profile, const char *phase) {
    if (profile)
      scope_.emplace(*profile, phase);
  }

private:
  std::optional<PhaseProfile::Scope> scope_;
};

llvm::Error liftFunctions(const Image &image, Lifter &lifter, const std::vector<uint64_t> &named,
                          const std::vector<uint64_t> &entries, const LiftSteps &steps,
                          DiagnosticSink &diagnostics, LiftTrace trace) {
  PhaseTimer timer(trace.profile, "lift");
  beginPhase(trace.progress, "lifting", entries.size());
  if (steps.concolic)
    for (uint64_t address : named) {
      llvm::Expected<DeobfuscationStats> stats =
          deobfuscateFunction(lifter.module(), image, address, *steps.concolic, diagnostics);
      if (!stats)
        return stats.takeError();
      if (trace.concolic)
        trace.concolic->push_back(*stats);
    }
  for (size_t i = 0; i < entries.size(); ++i) {
    uint64_t address = entries[i];
    if (lifter.options().pastDeadline()) {
      reportTimeBudgetExhausted(diagnostics, "lifting stopped after " + std::to_string(i) +
                                                 " of " + std::to_string(entries.size()) +
                                                 " functions");
      break;
    }
    llvm::Expected<llvm::Function *> lifted = lifter.liftFunction(address);
    advanceProgress(trace.progress);
    if (lifted)
      continue;
    // A function the user named must lift; one that discovery found is reported and left
    // out (calls to it become runtime calls), and the rest of the module is still emitted.
    bool isNamed = std::find(named.begin(), named.end(), address) != named.end();
    if (isNamed && !steps.all)
      return lifted.takeError();
    diagnostics.error("lift-failed", address,
                      llvm::toString(lifted.takeError()) +
                          "; calls to it are runtime calls (__hoist_call)");
  }
  if (steps.callees) {
    beginPhase(trace.progress, "lifting callees");
    lifter.liftCallees();
  }
  return llvm::Error::success();
}

/// The functions whose brightened form the differential check found computing something else
/// than their lift, by entry, with the reason brightening declines them for. The check runs
/// on a brightened copy of `module`, whose diagnostics are dropped: `module` itself is
/// brightened afterwards, declining these.
llvm::Expected<std::map<uint64_t, std::string>>
functionsFailingTheCheck(const llvm::Module &module, const Image &image, const LiftSteps &steps,
                         const FixpointExtras &extras, DiagnosticSink &diagnostics) {
  std::unique_ptr<llvm::Module> lifted = llvm::CloneModule(module);
  std::unique_ptr<llvm::Module> brightened = llvm::CloneModule(module);
  DiagnosticSink discarded;
  llvm::Expected<BrightenReport> report =
      brightenModule(*brightened, image, *steps.brighten, discarded, extras,
                     {.injectFaultInto = steps.injectFaultInto});
  if (!report)
    return report.takeError();
  llvm::Expected<BrightenCheckReport> check = checkBrightenedFunctions(
      std::move(lifted), std::move(brightened), image, report->functions, *steps.brighten,
      *steps.brightenCheck, diagnostics);
  if (!check)
    return check.takeError();
  std::map<uint64_t, std::string> declines;
  for (const auto &[address, difference] : check->differs)
    declines[address] = "in the differential check its brightened form computes something "
                        "else than its lift (brighten-check-differs)";
  return declines;
}

} // namespace

llvm::Error finishLiftedModule(llvm::Module &module, const Image &image, const LiftSteps &steps,
                               const LiftOptions &budgets, DiagnosticSink &diagnostics,
                               LiftTrace trace) {
  FixpointExtras extras;
  if (steps.deobfuscationPasses)
    extras.roundPasses.push_back(deobfuscationRoundPasses(trace.passes));
  extras.roundPasses.insert(extras.roundPasses.end(), steps.roundPasses.begin(),
                            steps.roundPasses.end());
  std::vector<std::string> brightened;
  if (steps.brighten) {
    std::map<uint64_t, std::string> declineAt;
    if (steps.brightenCheck) {
      PhaseTimer timer(trace.profile, "brighten_check");
      beginPhase(trace.progress, "checking brightened functions");
      llvm::Expected<std::map<uint64_t, std::string>> failing =
          functionsFailingTheCheck(module, image, steps, extras, diagnostics);
      if (!failing)
        return failing.takeError();
      declineAt = std::move(*failing);
    }
    PhaseTimer timer(trace.profile, "brighten");
    beginPhase(trace.progress, "brightening");
    llvm::Expected<BrightenReport> report =
        brightenModule(module, image, *steps.brighten, diagnostics, extras,
                       {.keepLifted = steps.keepLifted,
                        .dataAtOriginalAddresses = steps.dataAtOriginalAddresses,
                        .declineAt = std::move(declineAt),
                        .injectFaultInto = steps.injectFaultInto});
    if (!report)
      return report.takeError();
    brightened = std::move(report->brightened);
    // A whole binary's module becomes a recompiled binary, which must run its constructors.
    if (steps.all && image.format() == ImageFormat::Elf)
      carryInitializers(module, image, brightened, diagnostics);
  }
  {
    PhaseTimer timer(trace.profile, "optimize");
    if (steps.optLevel)
      beginPhase(trace.progress, "optimizing");
    if (steps.optLevel && budgets.pastDeadline()) {
      reportTimeBudgetExhausted(diagnostics, "optimization skipped");
    } else {
      OptimizeOptions options{.level = steps.optLevel};
      options.roundPasses = extras.roundPasses;
      noteLargeFunctions(optimizeModule(module, &image, options), options, diagnostics);
    }
  }
  // takeModule verified the lifted module when brightening or optimizing (the lifter's
  // options say so for both); only those change it.
  bool changed = steps.optLevel > 0 || steps.brighten;
  if (changed && llvm::verifyModule(module, &llvm::errs()))
    return makeError("{0}: lifted module fails the LLVM verifier (a Hoist bug)", image.path());
  if (changed)
    tidyOptimizedModule(module);
  // The functions that stay lifted in a brightened module (declined ones, `.lifted` copies)
  // are called by its code alone.
  if (steps.brighten)
    keepLiftedFunctionsLocal(module, brightened);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::Module>>
liftDiscovered(const Image &image, Lifter &lifter, const std::vector<uint64_t> &named,
               const std::vector<uint64_t> &entries, const LiftSteps &steps,
               DiagnosticSink &diagnostics, LiftTrace trace) {
  if (llvm::Error error = liftFunctions(image, lifter, named, entries, steps, diagnostics, trace))
    return std::move(error);
  std::unique_ptr<llvm::Module> module = lifter.takeModule();
  if (llvm::Error error =
          finishLiftedModule(*module, image, steps, lifter.options(), diagnostics, trace))
    return std::move(error);
  return std::move(module);
}

} // namespace hoist
