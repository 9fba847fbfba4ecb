// The subcommands of the `hoist` program. Each returns the process exit code:
// 0 success (also a partial result when a budget such as --timeout ran out: a diagnostic
// says so), 1 bad input (a clear message is printed on stderr), 2 usage error, 3 the watchdog
// of --timeout ended a run that overran its deadline (Support/TimeBudget.h).
#pragma once

#include "DiagnosticReport.h"

#include "Deobf/Concolic/DeobfuscateOptions.h"
#include "Support/Diagnostics.h"
#include "hoist/Image.h"
#include "hoist/Options.h"
#include "hoist/Program.h" // resolveFunction: a --function argument, a name or a 0x address
#include "hoist/Translate.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hoist {

struct InputOptions {
  std::string path;
  std::optional<uint64_t> rawBase;   ///< set by --raw --base ADDR
};

/// Loads the input named on the command line (ELF, PE, or a raw blob with --raw).
llvm::Expected<std::unique_ptr<Image>> loadInput(const InputOptions &input);

/// The function a command without --function takes (defaultFunction, Program.h); says on
/// stderr which one when no symbol names it main.
uint64_t takeDefaultFunction(const Image &image);

/// Prints `error` as "hoist: <message>" on stderr and returns exit code 1.
int reportFailure(llvm::Error error);

int runInfo(const InputOptions &input, bool json);

struct LiftCommandOptions {
  InputOptions input;
  std::vector<std::string> functions;   ///< names or 0x addresses; empty: main, else entry
  bool all = false;                     ///< every function program discovery finds
  bool callees = true;                  ///< also lift what lifted functions call, transitively
  /// Lift library functions recognized by signature too; by default an ELF's are called by
  /// name as imports are (docs/SIGNATURES.md).
  bool liftRecognized = false;
  bool recognize = true;   ///< --recognize=false: no library signatures
  std::string outputPath = "-";
  std::string emit = "ll";              ///< ll | bc | obj
  std::string brighten;                 ///< empty: no; "default", "sysv" or "win64"
  unsigned optLevel = 0;
  std::string diagnosticsPath;          ///< empty: none
  /// -j N with --all: N workers (0: every core), one module per chunk of functions in the
  /// directory `outputPath` (tools/hoist/ParallelLift.h); unset: one module.
  std::optional<unsigned> jobs;
  bool verifyEachFunction = false;      ///< --verify-each (LiftOptions::verifyEachFunction)
  bool verify = false;                  ///< --verify: also where liftOptionsFor would skip it
  /// --names: keep the names of values and blocks (%rax, %bb_401000). Off, the LLVM context
  /// discards them: naming costs about a third of the lift's time and memory.
  bool valueNames = false;
  /// --annotate: each machine instruction's address and assembly as a comment before its IR
  /// (tools/hoist/AnnotatedIR.h).
  bool annotate = false;
  /// --pc-metadata: `!hoist.pc` on the IR (LiftOptions::pcMetadata), which --annotate,
  /// brightening and deobfuscation also ask for (liftOptionsFor).
  bool pcMetadata = false;
  /// --keep-lifted: with --brighten, every lifted function stays beside its brightened one
  /// (BrightenOutput::keepLifted).
  bool keepLifted = false;
  /// --data-at-original-addresses: with --brighten (BrightenOutput::dataAtOriginalAddresses).
  bool dataAtOriginalAddresses = false;
  /// --brighten-check: run each brightened function against its lift and decline those that
  /// differ (lib/Check/BrightenCheck.h).
  bool brightenCheck = false;
  /// --brighten-check-seed: the check's seed; "random" draws one (printed in its note).
  std::string brightenCheckSeed = "0";
  /// --brighten-check-inject-fault=NAME: a test hook that makes NAME's brightening wrong.
  std::string injectFaultInto;
  /// --deobfuscate (or =passes): the passes of lib/Deobf/Passes in every fixpoint round.
  bool deobfuscatePasses = false;
  LiftOptions budgets;                  ///< the deadline of --timeout, if any
  /// -q: no closing line on stderr, no note about the callees lifted with --function.
  bool quiet = false;
  unsigned maxWarnings = DefaultMaxWarnings;   ///< --max-warnings (DiagnosticReport.h)
  /// --deobfuscate (or =concolic): the named functions are lifted concolically
  /// (lib/Deobf/Concolic).
  std::optional<DeobfuscateOptions> deobfuscate;
};

/// The lifter's options a `hoist lift` command line asks for.
LiftOptions liftOptionsFor(const LiftCommandOptions &options);
/// `module` as text IR, annotated with its machine code when `options` asks (--annotate).
void printTextIR(const llvm::Module &module, const Image &image, const LiftCommandOptions &options,
                 llvm::raw_ostream &out);

int runLift(const LiftCommandOptions &options);

struct StatsCommandOptions {
  std::vector<std::string> paths;      ///< every input; one that fails to load is skipped
  std::optional<uint64_t> rawBase;     ///< --raw --base ADDR, applied to every input
  bool json = false;
  bool sweep = false;                  ///< linear sweep of executable sections, not reachability
};

struct CfgCommandOptions {
  InputOptions input;
  std::vector<std::string> functions;   ///< names or 0x addresses
  bool all = false;                     ///< every function discovery finds
  bool json = false;
  bool dot = false;                     ///< Graphviz dot (CfgDot.h) instead of text or JSON
  bool recognize = true;                ///< library functions by signature (docs/SIGNATURES.md)
  std::string outputPath = "-";
  unsigned maxWarnings = DefaultMaxWarnings;   ///< --max-warnings (DiagnosticReport.h)
  LiftOptions budgets;                  ///< the deadline of --timeout, if any
  bool quiet = false;                   ///< -q: no progress line (ProgressLine.h)
};

/// `hoist cfg`: the control flow discovery recovers (functions, blocks, jump tables, calls).
int runCfg(const CfgCommandOptions &options);

struct ReportCommandOptions {
  InputOptions input;
  std::vector<std::string> functions;   ///< names or 0x addresses; empty: main, else entry
  bool all = false;                     ///< every function program discovery finds
  bool recognize = true;                ///< library functions by signature (docs/SIGNATURES.md)
  unsigned optLevel = 0;                ///< of the lifted IR shown, and of the brightened
  std::string outputDirectory;
  unsigned maxWarnings = DefaultMaxWarnings;   ///< --max-warnings (DiagnosticReport.h)
  LiftOptions budgets;                  ///< the deadline of --timeout, if any
  bool quiet = false;                   ///< -q: no progress line (ProgressLine.h)
};

/// `hoist report`: an HTML report of the lift of the functions (ReportPages.h): a page per
/// function with its graph, its assembly, its lifted and brightened IR and its diagnostics,
/// and a summary, DIR/index.html.
int runReport(const ReportCommandOptions &options);

struct TranslateCommandOptions {
  std::string input;
  std::string output;
  unsigned optLevel = 2;
  bool allowUnsupported = false;
  bool verbose = false;
  bool quiet = false;       ///< -q: no progress line (ProgressLine.h)
  std::string keepModule;   ///< also write the optimized module here
  unsigned jobs = 1;        ///< -j: threads (TranslateOptions::jobs)
};

/// `hoist translate`: the program lifted, optimized and linked into a new executable.
int runTranslate(const TranslateCommandOptions &options);
/// The library's options for `options` (CC names the linker driver).
TranslateOptions translateOptionsFor(const TranslateCommandOptions &options);
/// Prints the diagnostics a translation reports (not the notes, which are for `lift`) but
/// those `skip` names.
void printTranslateDiagnostics(const DiagnosticSink &diagnostics,
                               llvm::function_ref<bool(const Diagnostic &)> skip);

/// `hoist recompile`: as translate, with every function brightening accepts made a native
/// function (docs/TRANSLATE.md, "Recompiled programs"); prints how many were and why the rest
/// were not.
int runRecompile(const TranslateCommandOptions &options);

/// `hoist stats`: counts instructions and those without semantics, decoding only.
int runStats(const StatsCommandOptions &options);

} // namespace hoist
