// `hoist lift`: lift functions of a binary to LLVM IR, optionally optimized.
#include "AnnotatedIR.h"
#include "Commands.h"
#include "DeobfuscationRecords.h"
#include "DiagnosticReport.h"
#include "ImportRecords.h"
#include "LeaveAtExit.h"
#include "ParallelLift.h"
#include "PreparedLift.h"
#include "ProgressLine.h"
#include "RecognizedFunctions.h"

#include "Api/LiftPipeline.h"
#include "Brighten/EmitObject.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"
#include "Support/TimeBudget.h"
#include "hoist/Lifter.h"
#include "hoist/Program.h"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/ToolOutputFile.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <random>
#include <set>

namespace hoist {
namespace {

llvm::json::Object statsToJSON(const LiftStats &stats) {
  llvm::json::Object unsupported;
  for (const auto &[mnemonic, count] : stats.unsupported)
    unsupported[mnemonic] = count;
  return llvm::json::Object{{"instructions_lifted", stats.instructionsLifted},
                            {"blocks", stats.blocks},
                            {"functions", stats.functions},
                            {"unsupported", std::move(unsupported)}};
}

llvm::Error writeDiagnostics(const std::string &path, const LiftStats &stats,
                             const DiagnosticSink &diagnostics, const PhaseProfile &profile,
                             llvm::json::Array imports, llvm::json::Array deobfuscation = {}) {
  llvm::json::Object root{
      {"deobfuscation", std::move(deobfuscation)},
      {"imports", std::move(imports)},
      {"lift_stats", statsToJSON(stats)},
      {"summary", llvm::json::Object{{"warnings", diagnostics.count(Severity::Warning)},
                                     {"errors", diagnostics.count(Severity::Error)}}},
      {"profile_ms", profile.toJSON()},
      {"diagnostics", diagnostics.toJSON()}};
  std::error_code error;
  llvm::raw_fd_ostream out(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return makeError("{0}: cannot write diagnostics: {1}", path, error.message());
  out << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return llvm::Error::success();
}

std::string counted(uint64_t count, llvm::StringRef noun) {
  return withThousands(count) + " " + noun.str() + (count == 1 ? "" : "s");
}

/// The last line of a lift on stderr: "hoist: lifted 2,281 functions, 183,950 instructions,
/// 3 warnings -> bash.ll" (warnings and errors only when there are any).
void printClosingLine(const LiftStats &stats, const DiagnosticSink &diagnostics,
                      const std::string &outputPath) {
  llvm::errs() << "hoist: lifted " << counted(stats.functions, "function") << ", "
               << counted(stats.instructionsLifted, "instruction");
  if (size_t warnings = diagnostics.count(Severity::Warning))
    llvm::errs() << ", " << counted(warnings, "warning");
  if (size_t errors = diagnostics.count(Severity::Error))
    llvm::errs() << ", " << counted(errors, "error");
  llvm::errs() << " -> " << (outputPath == "-" ? "stdout" : outputPath) << "\n";
}

/// `--function F` also lifts what F calls, transitively (LiftCommandOptions::callees), which
/// the command line alone does not show: say how many came along.
void noteCalleesLifted(const Image &image, const std::vector<uint64_t> &requested,
                       const LiftStats &stats) {
  if (stats.functions <= requested.size())
    return;
  std::vector<std::string> names;
  for (uint64_t address : requested)
    names.push_back(image.nameAt(address).value_or(formatAddress(address)));
  llvm::errs() << "hoist: note: " << llvm::join(names, ", ") << ": lifted "
               << counted(stats.functions - requested.size(), "function")
               << (requested.size() == 1 ? " it calls with it" : " they call with them")
               << " (--callees=false declares them instead)\n";
}

} // namespace

LiftOptions liftOptionsFor(const LiftCommandOptions &options) {
  LiftOptions lift = options.budgets;
  lift.verifyEachFunction = options.verifyEachFunction;
  // The verifier checks Hoist, not the input, and costs a third of an unoptimized lift. It
  // still runs where a broken function would do harm (LLVM's passes and code generation
  // assume valid IR) or cost nothing next to the rest: optimization, brightening, objects.
  lift.verify = options.verify || options.optLevel > 0 || !options.brighten.empty() ||
                options.emit == "obj";
  // Only what reads the addresses pays for the metadata: the annotations, brightening's
  // reasons and call sites, the concolic lifter and the deobfuscation passes' reports.
  lift.pcMetadata = options.pcMetadata || options.annotate || !options.brighten.empty() ||
                    options.deobfuscate || options.deobfuscatePasses;
  // -j N: whole-program discovery explores each round's functions on N threads too, before
  // the N workers lift (it was a sixth of the serial time, and capped the speed-up).
  if (options.jobs)
    lift.discoveryThreads = *options.jobs == 0 ? allCores() : *options.jobs;
  return lift;
}

void printTextIR(const llvm::Module &module, const Image &image, const LiftCommandOptions &options,
                 llvm::raw_ostream &out) {
  if (!options.annotate)
    return module.print(out, nullptr);
  // Brightening optimizes even at -O0: only unoptimized lifted IR is in machine order.
  bool machineOrder = options.optLevel == 0 && options.brighten.empty();
  printAnnotated(module, image, {.listUntagged = machineOrder}, out);
}

int runLift(const LiftCommandOptions &options) {
  PhaseProfile profile;
  DiagnosticSink diagnostics;
  ProgressLine progressLine(options.quiet);
  Progress *progress = progressLine.progress();
  llvm::Expected<PreparedLift> prepared = prepareLift(options, diagnostics, profile, progress);
  if (!prepared)
    return progressLine.fail(prepared.takeError());
  std::unique_ptr<Image> &image = prepared->image;
  std::unique_ptr<llvm::LLVMContext> &contextOwner = prepared->context;
  std::unique_ptr<Lifter> &lifterOwner = prepared->lifter;
  Lifter &lifter = *lifterOwner;
  const std::vector<uint64_t> &selected = prepared->selected;
  std::vector<uint64_t> &addresses = prepared->entries;
  const std::map<uint64_t, Recognition> &recognized = prepared->recognized;
  if (options.jobs) {
    llvm::json::Array deobfuscation;
    llvm::Expected<LiftStats> stats = [&] {
      auto scope = profile.time("lift_optimize_emit");
      return liftInParallel(*image, lifter, addresses, options, diagnostics, deobfuscation,
                            progress);
    }();
    progressLine.stop();
    if (!stats)
      return progressLine.fail(stats.takeError());
    printDiagnostics(diagnostics, options.maxWarnings, llvm::errs());
    if (!options.diagnosticsPath.empty())
      if (llvm::Error error = writeDiagnostics(options.diagnosticsPath, *stats, diagnostics,
                                               profile, importRecords(*image, nullptr),
                                               std::move(deobfuscation)))
        return progressLine.fail(std::move(error));
    if (!options.quiet)
      printClosingLine(*stats, diagnostics, options.outputPath);
    leaveToTheOperatingSystem(lifterOwner, contextOwner, image);
    return 0;
  }
  std::vector<DeobfuscationStats> deobfuscated;
  DeobfuscationPassStats deobfuscationStats;
  LiftSteps steps{.all = options.all,
                  .callees = options.callees,
                  .optLevel = options.optLevel,
                  .concolic = options.deobfuscate,
                  .deobfuscationPasses = options.deobfuscatePasses};
  steps.keepLifted = options.keepLifted;
  steps.dataAtOriginalAddresses = options.dataAtOriginalAddresses;
  if (!options.brighten.empty())
    steps.brighten = options.brighten == "default" ? defaultCallingConvention(image->format())
                                                   : *parseCallingConvention(options.brighten);
  if (options.brightenCheck) {
    BrightenCheckOptions check;
    if (options.brightenCheckSeed == "random")
      check.seed = std::random_device()() | uint64_t(std::random_device()()) << 32;
    else
      llvm::to_integer(llvm::StringRef(options.brightenCheckSeed), check.seed);
    steps.brightenCheck = check;
  }
  steps.injectFaultInto = options.injectFaultInto;
  llvm::Expected<std::unique_ptr<llvm::Module>> lifted =
      liftDiscovered(*image, lifter, selected, addresses, steps, diagnostics,
                     {.profile = &profile,
                      .concolic = &deobfuscated,
                      .passes = &deobfuscationStats,
                      .progress = progress});
  if (!lifted)
    return progressLine.fail(lifted.takeError());
  std::unique_ptr<llvm::Module> module = std::move(*lifted);
  markRecognized(*module, recognized);

  {
    auto scope = profile.time("emit");
    progressLine.beforeOutputTo(options.outputPath);
    beginPhase(progress, "writing");
    std::error_code error;
    llvm::ToolOutputFile out(options.outputPath, error,
                             options.emit != "ll" ? llvm::sys::fs::OF_None
                                                  : llvm::sys::fs::OF_Text);
    if (error)
      return progressLine.fail(
          makeError("{0}: cannot write: {1}", options.outputPath, error.message()));
    if (options.emit == "obj") {
      if (llvm::Error error = emitHostObject(*module, out.os()))
        return progressLine.fail(std::move(error));
    } else if (options.emit == "bc")
      llvm::WriteBitcodeToFile(*module, out.os());
    else
      printTextIR(*module, *image, options, out.os());
    out.keep();
  }
  progressLine.stop();

  printDiagnostics(diagnostics, options.maxWarnings, llvm::errs());
  if (!options.diagnosticsPath.empty())
    if (llvm::Error error = writeDiagnostics(
            options.diagnosticsPath, lifter.stats(), diagnostics, profile,
            importRecords(*image, module.get()),
            deobfuscationRecords(deobfuscated,
                                 options.deobfuscatePasses ? &deobfuscationStats : nullptr,
                                 *module, *image)))
      return progressLine.fail(std::move(error));
  if (!options.quiet) {
    if (!options.all && options.callees)
      noteCalleesLifted(*image, selected, lifter.stats());
    printClosingLine(lifter.stats(), diagnostics, options.outputPath);
  }
  leaveToTheOperatingSystem(module, lifterOwner, contextOwner, image);
  return 0;
}

} // namespace hoist
