// `hoist report`: an HTML report of a lift (docs/CLI.md, "Report"). The functions are lifted
// once; a copy of the lifted module is brightened, so that each page shows both forms.
#include "AnnotatedIR.h"
#include "CfgDot.h"
#include "Commands.h"
#include "DiagnosticReport.h"
#include "GraphvizSvg.h"
#include "LeaveAtExit.h"
#include "PreparedLift.h"
#include "ReportPages.h"

#include "Api/LiftPipeline.h"
#include "Decode/Decoder.h"
#include "Discover/ProgramDiscovery.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <map>

namespace hoist {
namespace {

/// Graphviz takes minutes to lay out a graph of thousands of blocks, and nobody reads one:
/// such a function's page says how to draw it alone.
constexpr size_t MaxDrawnBlocks = 600;

/// The lifted functions with a body, by entry (a callee left to the runtime has one too: a call
/// of __hoist_call, marked "hoist-not-lifted").
std::map<uint64_t, const llvm::Function *> liftedFunctions(const llvm::Module &module) {
  std::map<uint64_t, const llvm::Function *> functions;
  for (const llvm::Function &function : module)
    if (std::optional<uint64_t> entry = entryAddressOf(function))
      if (!function.isDeclaration() && !function.hasFnAttribute("hoist-not-lifted"))
        functions.emplace(*entry, &function);
  return functions;
}

/// The brightened functions, by entry: those that replaced a lifted one (a declined function
/// and the `.lifted` copies stay lifted).
std::map<uint64_t, const llvm::Function *>
brightenedFunctions(const llvm::Module &module, const std::map<uint64_t, std::string> &declined) {
  std::map<uint64_t, const llvm::Function *> functions;
  for (const auto &[entry, function] : liftedFunctions(module))
    if (!declined.count(entry) && !function->getName().ends_with(".lifted"))
      functions.emplace(entry, function);
  return functions;
}

/// Why each declined function was not brightened: the reason its `brighten-declined` warning
/// gives after "not brightened (sysv): ".
std::map<uint64_t, std::string> declineReasons(const DiagnosticSink &diagnostics) {
  std::map<uint64_t, std::string> reasons;
  for (const Diagnostic &diagnostic : diagnostics.all()) {
    if (diagnostic.code != "brighten-declined" || !diagnostic.address)
      continue;
    llvm::StringRef message = diagnostic.message;
    size_t cut = message.find("): ");
    reasons.emplace(*diagnostic.address,
                    cut == llvm::StringRef::npos ? message.str() : message.drop_front(cut + 3).str());
  }
  return reasons;
}

std::string annotated(const llvm::Function &function, const Image &image, bool machineOrder) {
  std::string text;
  llvm::raw_string_ostream out(text);
  printAnnotated(function, image, {.listUntagged = machineOrder}, out);
  return text;
}

/// Whether `address` is in one of `function`'s blocks, or its entry.
bool isAtCode(const ExploredFunction &function, uint64_t address) {
  if (address == function.entry)
    return true;
  auto block = function.blocks.upper_bound(address);
  if (block == function.blocks.begin())
    return false;
  --block;
  return address < block->second.endAddress;
}

void describeCode(const Image &image, const DiscoveredFunction &discovered,
                  FunctionReport &report) {
  const ExploredFunction &explored = discovered.explored;
  report.blocks = explored.blocks.size();
  for (const auto &[jump, table] : explored.jumpTables)
    report.jumpTables += table.shape != JumpTable::Shape::Computed;
  for (const UnresolvedJump &jump : discovered.unresolvedJumps)
    report.unresolvedJumps.push_back({jump.jump, jump.reason});
  Decoder decoder;
  for (const auto &[start, block] : explored.blocks)
    forEachInstructionOfBlock(image, decoder, start, block.endAddress, [&](const Instr &instr) {
      report.instructions.push_back({instr.address, start, instr.text()});
    });
}

/// Draws the graph of every function discovery explored, in one run of dot.
llvm::Error drawGraphs(const Image &image, const std::map<uint64_t, DiscoveredFunction> &cfg,
                       std::vector<FunctionReport> &functions) {
  std::string dot;
  llvm::raw_string_ostream out(dot);
  std::vector<FunctionReport *> drawn;
  for (FunctionReport &function : functions) {
    auto discovered = cfg.find(function.entry);
    if (discovered == cfg.end()) {
      function.graphNote = "Discovery did not explore this function.";
      continue;
    }
    if (function.blocks > MaxDrawnBlocks) {
      function.graphNote = "Not drawn: " + std::to_string(function.blocks) + " blocks. `hoist cfg --dot --function " +
                           formatAddress(function.entry) + "` writes its graph.";
      continue;
    }
    writeCfgDot(image, cfg, out, {.only = {function.entry}, .blockIds = true});
    drawn.push_back(&function);
  }
  llvm::Expected<std::vector<std::string>> svgs = renderSvg(dot, drawn.size());
  if (!svgs)
    return svgs.takeError();
  for (size_t i = 0; i < drawn.size(); ++i)
    drawn[i]->svg = std::move((*svgs)[i]);
  return llvm::Error::success();
}

llvm::Error writePage(const std::string &directory, const std::string &name,
                      llvm::function_ref<void(llvm::raw_ostream &)> write) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, name);
  std::error_code error;
  llvm::raw_fd_ostream out(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return makeError("{0}: cannot write: {1}", path, error.message());
  write(out);
  out.close();
  if (out.has_error())
    return makeError("{0}: cannot write: {1}", path, out.error().message());
  return llvm::Error::success();
}

llvm::Error writePages(const std::string &directory, const ProgramReport &program) {
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return makeError("{0}: cannot create the directory: {1}", directory, error.message());
  for (const FunctionReport &function : program.functions)
    if (llvm::Error error = writePage(directory, function.page, [&](llvm::raw_ostream &out) {
          writeFunctionPage(program, function, out);
        }))
      return error;
  return writePage(directory, "index.html",
                   [&](llvm::raw_ostream &out) { writeIndexPage(program, out); });
}

} // namespace

int runReport(const ReportCommandOptions &options) {
  LiftCommandOptions lift;
  lift.input = options.input;
  lift.functions = options.functions;
  lift.all = options.all;
  lift.recognize = options.recognize;
  lift.optLevel = options.optLevel;
  lift.brighten = "default";   // so that the lifted module is verified before brightening
  lift.budgets = options.budgets;

  PhaseProfile profile;
  DiagnosticSink diagnostics;
  llvm::Expected<PreparedLift> prepared = prepareLift(lift, diagnostics, profile);
  if (!prepared)
    return reportFailure(prepared.takeError());
  const Image &image = *prepared->image;
  Lifter &lifter = *prepared->lifter;

  llvm::Expected<std::unique_ptr<llvm::Module>> lifted =
      liftDiscovered(image, lifter, prepared->selected, prepared->entries,
                     {.all = options.all, .callees = true}, diagnostics);
  if (!lifted)
    return reportFailure(lifted.takeError());
  std::unique_ptr<llvm::Module> module = std::move(*lifted);
  markRecognized(*module, prepared->recognized);

  ProgramReport program;
  program.binary = image.path();
  program.optLevel = options.optLevel;
  CallingConvention convention = defaultCallingConvention(image.format());
  program.convention = callingConventionName(convention);
  std::unique_ptr<llvm::Module> brightened = llvm::CloneModule(*module);
  DiagnosticSink brightenDiagnostics;
  LiftSteps brightenSteps{.optLevel = options.optLevel};
  brightenSteps.brighten = convention;
  if (llvm::Error error = finishLiftedModule(*brightened, image, brightenSteps, lifter.options(),
                                             brightenDiagnostics)) {
    program.brightenFailure = llvm::toString(std::move(error));
    brightened.reset();
  }
  if (options.optLevel > 0)
    if (llvm::Error error = finishLiftedModule(*module, image, {.optLevel = options.optLevel},
                                               lifter.options(), diagnostics))
      return reportFailure(std::move(error));

  program.instructionsLifted = lifter.stats().instructionsLifted;
  program.unsupported = lifter.stats().unsupported;
  for (const Diagnostic &diagnostic : brightenDiagnostics.all())
    diagnostics.report(diagnostic.severity, diagnostic.code, diagnostic.address,
                       diagnostic.message);
  program.diagnostics = diagnostics.all();

  std::map<uint64_t, std::string> declined = declineReasons(brightenDiagnostics);
  std::map<uint64_t, const llvm::Function *> brightenedByEntry;
  if (brightened)
    brightenedByEntry = brightenedFunctions(*brightened, declined);
  const std::map<uint64_t, DiscoveredFunction> &cfg = lifter.discoveredFunctions();
  for (const auto &[entry, function] : liftedFunctions(*module)) {
    FunctionReport report;
    report.entry = entry;
    report.name = image.nameAt(entry).value_or(function->getName().str());
    report.page = "fn_" + llvm::utohexstr(entry, /*LowerCase=*/true) + ".html";
    report.liftedIR = annotated(*function, image, /*machineOrder=*/options.optLevel == 0);
    if (auto found = brightenedByEntry.find(entry); found != brightenedByEntry.end())
      report.brightenedIR = annotated(*found->second, image, /*machineOrder=*/false);
    else if (auto reason = declined.find(entry); reason != declined.end())
      report.notBrightened = reason->second;
    else
      report.notBrightened = brightened ? "not in the brightened module"
                                        : "brightening failed: " + program.brightenFailure;
    if (auto discovered = cfg.find(entry); discovered != cfg.end()) {
      describeCode(image, discovered->second, report);
      for (const Diagnostic &diagnostic : program.diagnostics)
        if (diagnostic.address && isAtCode(discovered->second.explored, *diagnostic.address))
          report.diagnostics.push_back(diagnostic);
    }
    program.functions.push_back(std::move(report));
  }

  if (llvm::Error error = drawGraphs(image, cfg, program.functions))
    return reportFailure(std::move(error));
  if (llvm::Error error = writePages(options.outputDirectory, program))
    return reportFailure(std::move(error));
  printDiagnostics(diagnostics, options.maxWarnings, llvm::errs());
  llvm::errs() << "hoist: report of " << program.functions.size() << " functions -> "
               << options.outputDirectory << "/index.html\n";
  leaveToTheOperatingSystem(brightened, module, prepared->lifter, prepared->context,
                            prepared->image);
  return 0;
}

} // namespace hoist
