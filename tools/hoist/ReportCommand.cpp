// `hoist report`: an HTML report of a lift (docs/CLI.md, "Report"). The functions are lifted
// once; a copy of the lifted module is brightened, so that each page shows both forms.
#include "AnnotatedIR.h"
#include "CfgDot.h"
#include "CompactAssembly.h"
#include "Commands.h"
#include "DiagnosticReport.h"
#include "GraphvizSvg.h"
#include "LeaveAtExit.h"
#include "PreparedLift.h"
#include "ProgressLine.h"
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
  for (const llvm::Function &function : module) {
    std::optional<uint64_t> entry = entryAddressOf(function);
    if (entry && !function.isDeclaration() && !function.hasFnAttribute("hoist-not-lifted") &&
        !declined.count(*entry) && !function.getName().ends_with(".lifted"))
      functions.emplace(*entry, &function);
  }
  return functions;
}

/// Why each declined function was not brightened: the reason its `brighten-declined` warning
/// gives after "not brightened (sysv): ".
std::map<uint64_t, std::string> declineReasons(const DiagnosticSink &diagnostics) {
  std::map<uint64_t, std::string> reasons;
  for (const Diagnostic &diagnostic : diagnostics.all()) {
    if (diagnostic.code != "brighten-declined" || !diagnostic.address)
      continue;
    // "0x401120 (name): not brightened (sysv): REASON"; the name may hold "): " too.
    llvm::StringRef message = diagnostic.message;
    size_t said = message.find(": not brightened (");
    size_t cut = said == llvm::StringRef::npos ? said : message.find("): ", said);
    reasons.emplace(*diagnostic.address, cut == llvm::StringRef::npos
                                             ? message.str()
                                             : message.drop_front(cut + 3).str());
  }
  return reasons;
}

/// Each lifted function's text in the module annotated (AnnotatedIR.h): from the comment
/// naming its entry to its closing brace. Printed as one module, the text is `lift
/// --annotate`'s line for line, metadata numbers included (a function printed alone numbers
/// its metadata afresh). The comments come in the module's order of the functions with an
/// entry and a body, which tells whose each is.
std::map<const llvm::Function *, std::string>
annotatedFunctions(const llvm::Module &module, const Image &image, bool machineOrder) {
  std::string text;
  llvm::raw_string_ostream out(text);
  printAnnotated(module, image, {.listUntagged = machineOrder}, out);
  std::vector<llvm::StringRef> printed;
  llvm::StringRef rest = text;
  const llvm::StringRef marker = "\n; lifted from 0x";
  while (true) {
    size_t start = rest.find(marker);
    size_t end = rest.find("\n}\n", start);
    if (start == llvm::StringRef::npos || end == llvm::StringRef::npos)
      break;
    printed.push_back(rest.slice(start + 1, end + 2));
    rest = rest.drop_front(end + 2);
  }
  std::map<const llvm::Function *, std::string> functions;
  size_t next = 0;
  for (const llvm::Function &function : module)
    if (entryAddressOf(function) && !function.isDeclaration() && next < printed.size())
      functions.emplace(&function, printed[next++].str());
  return functions;
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
  CompactDisassembler disassembler;   // the text `--annotate` puts in the IR beside it
  for (const auto &[start, block] : explored.blocks)
    forEachInstructionOfBlock(image, decoder, start, block.endAddress, [&](const Instr &instr) {
      std::optional<Disassembled> compact = disassembler.at(image, instr.address);
      report.instructions.push_back(
          {instr.address, start, compact ? compact->text : instr.text()});
    });
}

/// Draws the graph of every function discovery explored, in one run of dot a core.
llvm::Error drawGraphs(const Image &image, const std::map<uint64_t, DiscoveredFunction> &cfg,
                       std::vector<FunctionReport> &functions) {
  std::vector<std::string> graphs;
  std::vector<FunctionReport *> drawn;
  for (FunctionReport &function : functions) {
    if (!cfg.count(function.entry)) {
      function.graphNote = "Discovery did not explore this function.";
      continue;
    }
    if (function.blocks > MaxDrawnBlocks) {
      function.graphNote = "Not drawn: " + std::to_string(function.blocks) +
                           " blocks. `hoist cfg --dot --function " +
                           formatAddress(function.entry) + "` writes its graph.";
      continue;
    }
    llvm::raw_string_ostream out(graphs.emplace_back());
    writeCfgDot(image, cfg, out, {.only = {function.entry}, .blockIds = true, .calls = false});
    drawn.push_back(&function);
  }
  llvm::Expected<std::vector<std::string>> svgs = renderSvg(graphs);
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
  lift.pcMetadata = true;   // the pages show each machine instruction beside its IR

  // Before the work whose graphs it would draw.
  if (llvm::Expected<std::string> dot = findDot(); !dot)
    return reportFailure(dot.takeError());

  PhaseProfile profile;
  DiagnosticSink diagnostics;
  ProgressLine progressLine(options.quiet);
  Progress *progress = progressLine.progress();
  llvm::Expected<PreparedLift> prepared = prepareLift(lift, diagnostics, profile, progress);
  if (!prepared)
    return progressLine.fail(prepared.takeError());
  const Image &image = *prepared->image;
  Lifter &lifter = *prepared->lifter;

  llvm::Expected<std::unique_ptr<llvm::Module>> lifted =
      liftDiscovered(image, lifter, prepared->selected, prepared->entries,
                     {.all = options.all, .callees = true}, diagnostics,
                     {.progress = progress});
  if (!lifted)
    return progressLine.fail(lifted.takeError());
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
      return progressLine.fail(std::move(error));

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
  // Discovery explored the functions asked for; the callees lifting took along are explored
  // here as `hoist cfg --function` would, for their pages.
  std::map<uint64_t, DiscoveredFunction> withCallees;
  std::vector<uint64_t> unexplored;
  std::map<uint64_t, const llvm::Function *> liftedByEntry = liftedFunctions(*module);
  for (const auto &[entry, function] : liftedByEntry)
    if (!lifter.discoveredFunctions().count(entry))
      unexplored.push_back(entry);
  if (!unexplored.empty()) {
    withCallees = lifter.discoveredFunctions();
    DiagnosticSink rediscovered;   // what lifting them said already
    ProgramCfg callees = discoverProgram(image, {.roots = unexplored}, lifter.options(),
                                         rediscovered);
    withCallees.merge(callees.functions);
  }
  const std::map<uint64_t, DiscoveredFunction> &cfg =
      unexplored.empty() ? lifter.discoveredFunctions() : withCallees;
  std::map<const llvm::Function *, std::string> liftedText =
      annotatedFunctions(*module, image, /*machineOrder=*/options.optLevel == 0);
  std::map<const llvm::Function *, std::string> brightenedText;
  if (brightened)
    brightenedText = annotatedFunctions(*brightened, image, /*machineOrder=*/false);
  for (const auto &[entry, function] : liftedByEntry) {
    FunctionReport report;
    report.entry = entry;
    report.name = image.nameAt(entry).value_or(function->getName().str());
    report.page = "fn_" + llvm::utohexstr(entry, /*LowerCase=*/true) + ".html";
    report.liftedIR = liftedText[function];
    if (auto found = brightenedByEntry.find(entry); found != brightenedByEntry.end())
      report.brightenedIR = brightenedText[found->second];
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

  beginPhase(progress, "drawing graphs");
  if (llvm::Error error = drawGraphs(image, cfg, program.functions))
    return progressLine.fail(std::move(error));
  beginPhase(progress, "writing");
  if (llvm::Error error = writePages(options.outputDirectory, program))
    return progressLine.fail(std::move(error));
  progressLine.stop();
  printDiagnostics(diagnostics, options.maxWarnings, llvm::errs());
  llvm::SmallString<256> index(options.outputDirectory);
  llvm::sys::path::append(index, "index.html");
  llvm::errs() << "hoist: report of " << program.functions.size()
               << (program.functions.size() == 1 ? " function -> " : " functions -> ") << index
               << "\n";
  leaveToTheOperatingSystem(brightened, module, prepared->lifter, prepared->context,
                            prepared->image);
  return 0;
}

} // namespace hoist
