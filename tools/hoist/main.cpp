// hoist: lift x86-64 machine code to LLVM IR.
#include "Commands.h"

#include "Support/TimeBudget.h"
#include "hoist/Version.h"

#include "BashCompletion.h"
#include "CommandLineParse.h"
#include "DiagnosticReport.h"
#include "ParallelLift.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

using namespace llvm;

namespace {

cl::SubCommand InfoCmd("info", "Print sections, symbols, imports and exports of a binary");
cl::SubCommand LiftCmd("lift", "Lift functions of a binary to LLVM IR");
cl::SubCommand StatsCmd("stats", "Count instructions and list those without semantics");
cl::SubCommand CfgCmd("cfg", "Print the control flow discovery recovers (functions, blocks, "
                             "jump tables, calls)");

cl::SubCommand ReportCmd("report", "Write an HTML report of the lift: per function its graph, "
                                   "assembly, lifted and brightened IR, linked by address");

cl::SubCommand TranslateCmd("translate", "Lift a whole Linux program and link the lifted code "
                                         "into a new executable that behaves the same");

cl::SubCommand RecompileCmd("recompile", "Lift a whole Linux program, brighten every function "
                                         "that can be and link it with the rest, lifted, into a "
                                         "new executable that behaves the same");

cl::OptionCategory InputCategory("Input");
cl::opt<std::string> InputPath(cl::Positional, cl::desc("<binary>"), cl::Required, cl::sub(InfoCmd),
                               cl::sub(LiftCmd), cl::sub(CfgCmd), cl::sub(TranslateCmd),
                               cl::sub(RecompileCmd), cl::sub(ReportCmd), cl::cat(InputCategory));
cl::opt<bool> Raw("raw", cl::desc("Treat the input as raw code (needs --base)"),
                  cl::sub(InfoCmd), cl::sub(LiftCmd), cl::sub(StatsCmd), cl::sub(CfgCmd),
                  cl::sub(ReportCmd), cl::cat(InputCategory));
cl::opt<std::string> Base("base", cl::desc("Load address of a --raw input (0x...)"),
                          cl::value_desc("address"), cl::sub(InfoCmd), cl::sub(LiftCmd),
                          cl::sub(StatsCmd), cl::sub(CfgCmd), cl::sub(ReportCmd),
                          cl::cat(InputCategory));

cl::opt<bool> Json("json", cl::desc("Print JSON"), cl::sub(InfoCmd));

cl::list<std::string> Functions("function",
                                cl::desc("Function to lift: a symbol name or 0x address "
                                         "(repeatable; default: main, else the entry point)"),
                                cl::value_desc("name|0xaddr"), cl::sub(LiftCmd));
cl::opt<bool> LiftAll("all",
                      cl::desc("Lift every function program discovery finds, into one module"),
                      cl::sub(LiftCmd));
cl::opt<bool> Recognize("recognize",
                        cl::desc("Recognize statically linked library functions by signature "
                                 "(default true; docs/SIGNATURES.md)"),
                        cl::init(true), cl::sub(LiftCmd), cl::sub(CfgCmd), cl::sub(ReportCmd));
cl::opt<bool> LiftRecognized("lift-recognized",
                             cl::desc("Lift library functions recognized by signature too, "
                                      "instead of calling them by name (docs/SIGNATURES.md)"),
                             cl::sub(LiftCmd));
cl::opt<bool> LiftCallees("callees",
                          cl::desc("Also lift the functions lifted code calls, transitively "
                                   "(default true; --callees=false declares them and calls "
                                   "them through __hoist_call)"),
                          cl::init(true), cl::sub(LiftCmd));
cl::opt<std::string> Output("o", cl::desc("Output file (default: stdout)"),
                            cl::value_desc("file"), cl::init("-"), cl::sub(LiftCmd));
cl::opt<std::string> Emit("emit",
                          cl::desc("Output kind: ll, bc, or obj (an object for the host)"),
                          cl::init("ll"), cl::sub(LiftCmd));
cl::opt<std::string> Brighten("brighten",
                              cl::desc("Turn lifted functions into functions of a calling "
                                       "convention: sysv or win64 (default: from the format)"),
                              cl::value_desc("sysv|win64"), cl::ValueOptional,
                              cl::sub(LiftCmd));
enum OptimizationLevel : unsigned { O0, O1, O2, O3 };
cl::opt<OptimizationLevel> OptLevel(cl::desc("Optimization level:"), cl::init(O0), cl::sub(LiftCmd),
                           cl::values(clEnumValN(O0, "O0", "No optimization (default)"),
                                      clEnumValN(O1, "O1", "O1 pipeline"),
                                      clEnumValN(O2, "O2", "O2 pipeline"),
                                      clEnumValN(O3, "O3", "O3 pipeline")));
cl::opt<int> Jobs("j",
                  cl::desc("With --all: lift and optimize in N parallel workers (0: every core), "
                           "writing one module per chunk of functions into the directory -o"),
                  cl::value_desc("N"), cl::init(-1), cl::sub(LiftCmd));
cl::opt<bool> Verify("verify",
                     cl::desc("Run the LLVM verifier over the lifted module even at -O0 (it "
                              "always runs with -O1..-O3, --brighten and --emit obj); a "
                              "function it rejects becomes a runtime call"),
                     cl::sub(LiftCmd));
cl::opt<bool> VerifyEach("verify-each",
                         cl::desc("Run the LLVM verifier on each function as it is lifted"),
                         cl::sub(LiftCmd));
cl::opt<bool> ValueNames("names",
                         cl::desc("Name values and blocks after registers and addresses "
                                  "(%rax, %bb_401000); slower, so off by default"),
                         cl::sub(LiftCmd));
cl::opt<bool> Annotate("annotate",
                       cl::desc("Write each machine instruction's address and assembly (Intel "
                                "syntax) as a comment before its IR (--emit ll only)"),
                       cl::sub(LiftCmd));
cl::opt<bool> PcMetadata("pc-metadata",
                         cl::desc("Tag the IR with each machine instruction's address "
                                  "(!hoist.pc); --annotate, --brighten and --deobfuscate do"),
                         cl::sub(LiftCmd));
cl::opt<bool> KeepLifted("keep-lifted",
                         cl::desc("With --brighten: keep every lifted function beside its "
                                  "brightened one, as NAME.lifted"),
                         cl::sub(LiftCmd));
cl::opt<bool> DataAtOriginalAddresses(
    "data-at-original-addresses",
    cl::desc("With --brighten on a position-dependent executable brightened whole: keep its data "
             "at the binary's addresses (sections .hoist.data.<address>, which the link must "
             "place there: scripts/brighten-program.sh), so words the linker stored there need "
             "no relocation"),
    cl::sub(LiftCmd));
cl::opt<bool> BrightenCheck(
    "brighten-check",
    cl::desc("With --brighten: run each brightened function in a JIT against its lift on random "
             "arguments and decline those whose runs differ (docs/BRIGHTEN.md)"),
    cl::sub(LiftCmd));
cl::opt<std::string> BrightenCheckSeed(
    "brighten-check-seed",
    cl::desc("The seed of --brighten-check's random arguments (default 0); 'random' draws a new "
             "one, which the check's note prints"),
    cl::value_desc("N|random"), cl::init("0"), cl::sub(LiftCmd));
cl::opt<std::string> BrightenCheckInjectFault(
    "brighten-check-inject-fault",
    cl::desc("Test hook: make the brightened function NAME return a wrong value, to show that "
             "--brighten-check declines it"),
    cl::value_desc("NAME"), cl::Hidden, cl::sub(LiftCmd));
cl::opt<bool> Quiet("q",
                    cl::desc("Quiet: no progress line, no closing summary and no note about "
                             "the callees lifted (warnings and errors are still printed)"),
                    cl::sub(LiftCmd));
cl::opt<unsigned> MaxWarnings("max-warnings",
                              cl::desc("Print at most N warnings in full; past N, one line per "
                                       "warning code with its count and first addresses "
                                       "(--diagnostics lists every one)"),
                              cl::value_desc("N"), cl::init(hoist::DefaultMaxWarnings),
                              cl::sub(LiftCmd), cl::sub(CfgCmd), cl::sub(ReportCmd));
cl::opt<std::string> DiagnosticsFile("diagnostics",
                                     cl::desc("Write lift statistics and diagnostics as JSON"),
                                     cl::value_desc("file.json"), cl::sub(LiftCmd));

cl::opt<std::string> Deobfuscate(
    "deobfuscate", cl::ValueOptional,
    cl::desc("Deobfuscate (docs/DEOBFUSCATE.md): a concolic lift that follows concrete jumps, "
             "calls and returns, folds decided branches and devirtualizes, then the IR passes "
             "that undo MBA, opaque predicates and flattening. =concolic: the lift alone; "
             "=passes: the passes alone, on the static lift"),
    cl::value_desc("all|concolic|passes"), cl::sub(LiftCmd));
cl::opt<bool> DeobfuscatePasses("deobfuscate-passes",
                                cl::desc("Deprecated: --deobfuscate=passes"), cl::Hidden,
                                cl::sub(LiftCmd));
cl::opt<std::string> Outline("outline", cl::desc("With --deobfuscate: callees kept as calls"),
                             cl::value_desc("0xaddr,..."), cl::sub(LiftCmd));
cl::opt<std::string> ConcreteMemory("concrete-memory",
                                    cl::desc("With --deobfuscate: more concrete memory"),
                                    cl::value_desc("0xlo-0xhi,..."), cl::sub(LiftCmd));
cl::opt<std::string> SymbolicMemory("symbolic-memory",
                                    cl::desc("With --deobfuscate: memory not taken as concrete"),
                                    cl::value_desc("0xlo-0xhi,..."), cl::sub(LiftCmd));

cl::opt<double> Timeout("timeout",
                        cl::desc("Stop discovery and lifting after SECONDS and write the "
                                 "partial result (exit 0, with a diagnostic); a run still busy "
                                 "at twice that plus 10 s is ended with exit code 3"),
                        cl::value_desc("seconds"), cl::init(0), cl::sub(LiftCmd),
                        cl::sub(CfgCmd), cl::sub(ReportCmd));

cl::opt<std::string> TranslateOutput("o", cl::desc("The translated executable"),
                                     cl::value_desc("file"), cl::Required, cl::sub(TranslateCmd),
                                     cl::sub(RecompileCmd));
cl::opt<OptimizationLevel> TranslateOptLevel(
    cl::desc("Optimization level:"), cl::init(O2), cl::sub(TranslateCmd), cl::sub(RecompileCmd),
    cl::values(clEnumValN(O0, "O0", "No optimization"), clEnumValN(O1, "O1", "O1 pipeline"),
               clEnumValN(O2, "O2", "O2 pipeline (default)"), clEnumValN(O3, "O3", "O3 pipeline")));
cl::opt<bool> AllowUnsupported("allow-unsupported",
                               cl::desc("Translate a program that uses what translation does not "
                                        "support (threads, signal handlers, ...) anyway"),
                               cl::sub(TranslateCmd), cl::sub(RecompileCmd));
cl::opt<std::string> KeepModule("keep-module",
                                cl::desc("Also write the optimized translated module (.ll)"),
                                cl::value_desc("file.ll"), cl::sub(TranslateCmd),
                                cl::sub(RecompileCmd));
cl::opt<bool> TranslateVerbose("v", cl::desc("Print what was translated"), cl::sub(TranslateCmd),
                               cl::sub(RecompileCmd));
cl::opt<bool> TranslateQuiet("q", cl::desc("Quiet: no progress line on a terminal"),
                             cl::sub(TranslateCmd), cl::sub(RecompileCmd));
cl::opt<unsigned> TranslateJobs("j",
                                cl::desc("Discover and compile in N threads (0, the default: "
                                         "every core); the output behaves the same with any N"),
                                cl::value_desc("N"), cl::init(0), cl::sub(TranslateCmd),
                                cl::sub(RecompileCmd));

cl::list<std::string> CfgFunctions("function",
                                   cl::desc("Function to show: a symbol name or 0x address "
                                            "(repeatable; default: main, else the entry point)"),
                                   cl::value_desc("name|0xaddr"), cl::sub(CfgCmd));
cl::opt<bool> CfgAll("all", cl::desc("Every function discovery finds"), cl::sub(CfgCmd));
cl::opt<bool> CfgJson("json", cl::desc("Print JSON"), cl::sub(CfgCmd));
cl::opt<bool> CfgDot("dot",
                     cl::desc("Print a Graphviz graph: a cluster per function, blocks with "
                              "their assembly, edges by kind (render with dot -Tsvg)"),
                     cl::sub(CfgCmd));
cl::opt<bool> CfgQuiet("q", cl::desc("Quiet: no progress line on a terminal"), cl::sub(CfgCmd));
cl::opt<bool> ReportQuiet("q", cl::desc("Quiet: no progress line on a terminal"),
                          cl::sub(ReportCmd));
cl::opt<std::string> CfgOutput("o", cl::desc("Output file (default: stdout)"),
                               cl::value_desc("file"), cl::init("-"), cl::sub(CfgCmd));

cl::list<std::string> ReportFunctions("function",
                                      cl::desc("Function to report: a symbol name or 0x address "
                                               "(repeatable; default: main, else the entry "
                                               "point); the functions it calls come with it"),
                                      cl::value_desc("name|0xaddr"), cl::sub(ReportCmd));
cl::opt<bool> ReportAll("all", cl::desc("Every function discovery finds"), cl::sub(ReportCmd));
cl::opt<std::string> ReportOutput("o", cl::desc("The directory the pages are written into"),
                                  cl::value_desc("directory"), cl::Required, cl::sub(ReportCmd));
cl::opt<OptimizationLevel> ReportOptLevel(
    cl::desc("Optimization level of the IR shown:"), cl::init(O0), cl::sub(ReportCmd),
    cl::values(clEnumValN(O0, "O0", "No optimization (default)"), clEnumValN(O1, "O1", "O1 pipeline"),
               clEnumValN(O2, "O2", "O2 pipeline"), clEnumValN(O3, "O3", "O3 pipeline")));

cl::list<std::string> StatsInputs(cl::Positional, cl::desc("<binary>..."), cl::OneOrMore,
                                  cl::sub(StatsCmd), cl::cat(InputCategory));
cl::opt<bool> StatsJson("json", cl::desc("Print JSON"), cl::sub(StatsCmd));
cl::opt<bool> StatsSweep("sweep",
                         cl::desc("Linear sweep of every executable section instead of the "
                                  "instructions reachable from known entries"),
                         cl::sub(StatsCmd));

// For the build, which installs the script it prints (BashCompletion.h).
cl::opt<std::string> PrintCompletion("print-completion",
                                     cl::desc("Print a completion script for the shell: bash"),
                                     cl::value_desc("shell"), cl::Hidden);

/// `hoist --version`: Hoist's own version, then the LLVM and Zydis it runs with.
void printVersion(raw_ostream &out) {
  out << "Hoist " << HOIST_VERSION_STRING << "\n"
      << "  LLVM " << hoist::llvmVersion() << "\n"
      << "  Zydis " << hoist::zydisVersion() << "\n";
}

int usageError(const Twine &message) {
  errs() << "hoist: error: " << message << "\n";
  return 2;
}

/// An -O level other than -O0..-O3 (also spelled --O7): LLVM's parser would answer "Did you
/// mean '--O0'?", which names an option spelling hoist never uses in its messages.
std::optional<std::string> unknownOptimizationLevel(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--")
      break;
    if (!arg.consume_front("-"))
      continue;
    arg.consume_front("-");
    if (arg.consume_front("O") && !(arg.size() == 1 && arg[0] >= '0' && arg[0] <= '3'))
      return ("-O" + arg).str();
  }
  return std::nullopt;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&InputCategory});
  cl::SetVersionPrinter(printVersion);

  if (std::optional<std::string> level = unknownOptimizationLevel(argc, argv))
    return usageError("unknown optimization level " + *level + " (use -O0..-O3)");

  if (!hoist::parseCommandLine(argc, argv, "Hoist: x86-64 machine code to LLVM IR\n"))
    return 2;

  if (PrintCompletion.getNumOccurrences()) {
    if (PrintCompletion != "bash")
      return usageError("--print-completion knows bash, not '" + PrintCompletion + "'");
    hoist::printBashCompletion(outs());
    return 0;
  }

  // The clock of --timeout starts before the input is read.
  hoist::LiftOptions budgets;
  std::optional<hoist::Watchdog> watchdog;
  if (Timeout.getNumOccurrences()) {
    if (!(Timeout > 0) || Timeout > 1e6)
      return usageError("--timeout needs a number of seconds above 0");
    budgets.deadline = hoist::deadlineAfter(Timeout);
    watchdog.emplace(hoist::watchdogDelay(Timeout));
  }

  hoist::InputOptions input;
  input.path = InputPath;
  if (Raw) {
    uint64_t base = 0;
    if (Base.empty() || StringRef(Base).getAsInteger(0, base))
      return usageError("--raw needs --base 0xADDRESS");
    input.rawBase = base;
  } else if (!Base.empty()) {
    return usageError("--base is only meaningful with --raw");
  }

  if (InfoCmd)
    return hoist::runInfo(input, Json);
  if (LiftCmd) {
    if (Emit != "ll" && Emit != "bc" && Emit != "obj")
      return usageError("--emit must be ll, bc or obj, not '" + Emit + "'");
    if (KeepLifted && !Brighten.getNumOccurrences())
      return usageError("--keep-lifted keeps the lifted functions --brighten replaces: it needs --brighten");
    if (DataAtOriginalAddresses && !Brighten.getNumOccurrences())
      return usageError("--data-at-original-addresses places brightened data: it needs --brighten");
    if ((BrightenCheck || BrightenCheckSeed.getNumOccurrences() ||
         BrightenCheckInjectFault.getNumOccurrences()) &&
        !Brighten.getNumOccurrences())
      return usageError("--brighten-check checks what --brighten makes: it needs --brighten");
    if (BrightenCheck && DataAtOriginalAddresses)
      return usageError("--brighten-check does not run data kept at the binary's addresses: "
                        "leave out --data-at-original-addresses");
    if (uint64_t seed = 0; BrightenCheckSeed != "random" &&
                           !llvm::to_integer(llvm::StringRef(BrightenCheckSeed), seed))
      return usageError("--brighten-check-seed must be a number or 'random', not '" +
                        BrightenCheckSeed + "'");
    if (Annotate && Emit != "ll")
      return usageError("--annotate writes comments into text IR: it needs --emit ll");
    if (Brighten.getNumOccurrences() && !Brighten.empty() && Brighten != "sysv" &&
        Brighten != "win64")
      return usageError("--brighten must be sysv or win64, not '" + Brighten + "'");
    hoist::LiftCommandOptions options;
    options.input = input;
    options.functions.assign(Functions.begin(), Functions.end());
    options.all = LiftAll;
    options.callees = LiftCallees;
    options.liftRecognized = LiftRecognized;
    options.recognize = Recognize;
    options.outputPath = Output;
    options.emit = Emit;
    options.optLevel = OptLevel;
    options.diagnosticsPath = DiagnosticsFile;
    options.verifyEachFunction = VerifyEach;
    options.verify = Verify;
    options.valueNames = ValueNames;
    options.annotate = Annotate;
    options.pcMetadata = PcMetadata;
    options.keepLifted = KeepLifted;
    options.dataAtOriginalAddresses = DataAtOriginalAddresses;
    options.brightenCheck = BrightenCheck;
    options.brightenCheckSeed = BrightenCheckSeed;
    options.injectFaultInto = BrightenCheckInjectFault;
    options.quiet = Quiet;
    options.maxWarnings = MaxWarnings;
    options.budgets = budgets;
    if (Jobs.getNumOccurrences()) {
      if (Jobs < 0 || !LiftAll)
        return usageError("-j N needs --all and N >= 0 (0: every core)");
      if (Output == "-")
        return usageError("-j N writes one module per chunk of functions: -o must name a "
                          "directory");
      // The parallel path writes lifted chunks as IR; brightening and objects need one module.
      if (Brighten.getNumOccurrences() || Emit == "obj")
        return usageError("-j N writes lifted IR per chunk: it does not take --brighten or --emit obj");
      options.jobs = static_cast<unsigned>(Jobs);
    }
    if (Brighten.getNumOccurrences())
      options.brighten = Brighten.empty() ? "default" : Brighten.getValue();
    // --deobfuscate alone is the whole deobfuscation; --deobfuscate-passes is the old name of
    // --deobfuscate=passes.
    bool concolic = false;
    if (Deobfuscate.getNumOccurrences()) {
      if (Deobfuscate != "" && Deobfuscate != "all" && Deobfuscate != "concolic" &&
          Deobfuscate != "passes")
        return usageError("--deobfuscate takes all, concolic or passes, not '" + Deobfuscate +
                          "'");
      concolic = Deobfuscate != "passes";
      options.deobfuscatePasses = Deobfuscate != "concolic";
    }
    options.deobfuscatePasses |= DeobfuscatePasses;
    if (!concolic && (!Outline.empty() || !ConcreteMemory.empty() || !SymbolicMemory.empty()))
      return usageError("--outline, --concrete-memory and --symbolic-memory need the concolic "
                        "lift (--deobfuscate or --deobfuscate=concolic)");
    if (concolic) {
      auto parsed = hoist::parseDeobfuscateOptions(Outline, ConcreteMemory, SymbolicMemory);
      if (!parsed)
        return usageError(llvm::toString(parsed.takeError()));
      options.deobfuscate = *parsed;
    }
    return hoist::runLift(options);
  }
  if (TranslateCmd || RecompileCmd) {
    hoist::TranslateCommandOptions options;
    options.input = InputPath;
    options.output = TranslateOutput;
    options.optLevel = TranslateOptLevel;
    options.allowUnsupported = AllowUnsupported;
    options.keepModule = KeepModule;
    options.verbose = TranslateVerbose;
    options.quiet = TranslateQuiet;
    options.jobs = TranslateJobs == 0 ? hoist::allCores() : TranslateJobs.getValue();
    return RecompileCmd ? hoist::runRecompile(options) : hoist::runTranslate(options);
  }
  if (CfgCmd) {
    hoist::CfgCommandOptions options;
    options.input = input;
    options.functions.assign(CfgFunctions.begin(), CfgFunctions.end());
    options.all = CfgAll;
    options.recognize = Recognize;
    if (CfgJson && CfgDot)
      return usageError("--json and --dot are two output formats: choose one");
    options.json = CfgJson;
    options.dot = CfgDot;
    options.outputPath = CfgOutput;
    options.maxWarnings = MaxWarnings;
    options.budgets = budgets;
    options.quiet = CfgQuiet;
    return hoist::runCfg(options);
  }
  if (ReportCmd) {
    hoist::ReportCommandOptions options;
    options.input = input;
    options.functions.assign(ReportFunctions.begin(), ReportFunctions.end());
    options.all = ReportAll;
    options.recognize = Recognize;
    options.optLevel = ReportOptLevel;
    options.outputDirectory = ReportOutput;
    options.maxWarnings = MaxWarnings;
    options.budgets = budgets;
    options.quiet = ReportQuiet;
    return hoist::runReport(options);
  }
  if (StatsCmd) {
    hoist::StatsCommandOptions options;
    options.paths.assign(StatsInputs.begin(), StatsInputs.end());
    options.rawBase = input.rawBase;
    options.json = StatsJson;
    options.sweep = StatsSweep;
    return hoist::runStats(options);
  }
  return usageError("expected a subcommand: info, lift, cfg, stats, translate or report (see hoist --help)");
}
