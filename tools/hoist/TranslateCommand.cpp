// `hoist translate`: a whole program lifted, optimized and linked into a new executable.
#include "Commands.h"
#include "ProgressLine.h"

#include "Support/Diagnostics.h"
#include "hoist/Translate.h"

#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist {

TranslateOptions translateOptionsFor(const TranslateCommandOptions &options) {
  TranslateOptions translate;
  translate.input = options.input;
  translate.output = options.output;
  translate.optLevel = options.optLevel;
  translate.allowUnsupported = options.allowUnsupported;
  translate.keepModule = options.keepModule;
  translate.jobs = options.jobs;
  if (std::optional<std::string> compiler = llvm::sys::Process::GetEnv("CC"))
    translate.compiler = *compiler;
  return translate;
}

void printTranslateDiagnostics(const DiagnosticSink &diagnostics,
                               llvm::function_ref<bool(const Diagnostic &)> skip) {
  // Notes (x87 control words and the like) are for `lift`; a translation reports what may
  // change the program's behaviour, and a function it optimized less (its speed).
  for (const Diagnostic &d : diagnostics.all())
    if ((d.severity != Severity::Note || d.code == "large-function") && !skip(d))
      llvm::errs() << "hoist: " << severityName(d.severity) << ": " << d.message << "\n";
}

int runTranslate(const TranslateCommandOptions &options) {
  DiagnosticSink diagnostics;
  ProgressLine progressLine(options.quiet);
  llvm::Expected<TranslateReport> report =
      translateProgram(translateOptionsFor(options), diagnostics, progressLine.progress());
  progressLine.stop();
  printTranslateDiagnostics(diagnostics, [](const Diagnostic &) { return false; });
  if (!report)
    return reportFailure(report.takeError());
  if (options.verbose)
    llvm::errs() << "hoist: translated " << report->functions << " functions ("
                 << report->instructions << " instructions; " << report->patchableEntries
                 << " entries reachable from native code; " << report->redundantStoresRemoved
                 << " redundant State stores removed; " << report->nativeCarrylessMultiplies
                 << " carry-less multiplies made native; " << report->orderedGuestAccesses
                 << " guest loads and stores ordered as x86's) into " << options.output << "\n"
                 << "hoist: compiled in " << report->partitions << " partition"
                 << (report->partitions == 1 ? "" : "s") << "\n";
  return 0;
}

} // namespace hoist
