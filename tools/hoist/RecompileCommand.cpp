// `hoist recompile`: a whole program translated with every function brightening accepts made
// a native function (lib/Translate/BrightenedHalf.h); prints how many were and, grouped, why
// the rest stay in State form.
#include "Commands.h"
#include "ProgressLine.h"

#include "Support/Diagnostics.h"
#include "hoist/Translate.h"

#include <llvm/Support/Regex.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>

namespace hoist {
namespace {

bool keepsStateForm(const Diagnostic &d) {
  return d.code == "brighten-declined" || d.code == "recompile-state-form";
}

/// The reason of a decline without what is particular to the function (addresses, names of
/// functions, numbers), so that declines for one rule count together: `0x4011a0 (walk): not
/// brightened (System V): calls fn_401000, which is not brightened` counts as `calls fn_…,
/// which is not brightened`.
std::string reasonGroup(const Diagnostic &d) {
  llvm::StringRef message = d.message;
  // `NAME: not brightened (sysv): REASON`, `NAME: stays in State form: REASON`.
  for (llvm::StringRef marker : {": not brightened (", ": stays in State form: "}) {
    size_t at = message.find(marker);
    if (at == llvm::StringRef::npos)
      continue;
    message = message.substr(at + marker.size());
    if (size_t end = message.find("): "); marker.ends_with("(") && end != llvm::StringRef::npos)
      message = message.substr(end + 3);
    break;
  }
  std::string reason = message.str();
  static const llvm::Regex hex("0x[0-9a-fA-F]+"), lifted("fn_[0-9a-f]+"), number("[0-9][0-9]*");
  auto replaceAll = [](const llvm::Regex &pattern, llvm::StringRef by, std::string text) {
    std::string previous;
    while (previous != text) {
      previous = text;
      text = pattern.sub(by, text);
    }
    return text;
  };
  reason = replaceAll(hex, "ADDR", reason);
  reason = replaceAll(lifted, "fn_ADDR", reason);
  reason = replaceAll(number, "N", reason);
  return reason;
}

} // namespace

int runRecompile(const TranslateCommandOptions &options) {
  TranslateOptions translate = translateOptionsFor(options);
  translate.brighten = true;
  DiagnosticSink diagnostics;
  ProgressLine progressLine(options.quiet);
  llvm::Expected<TranslateReport> report =
      translateProgram(translate, diagnostics, progressLine.progress());
  progressLine.stop();
  // One line per declined function only with -v: a program has hundreds.
  printTranslateDiagnostics(
      diagnostics, [&](const Diagnostic &d) { return !options.verbose && keepsStateForm(d); });
  if (!report)
    return reportFailure(report.takeError());
  std::map<std::string, unsigned> groups;
  for (const Diagnostic &d : diagnostics.all())
    if (keepsStateForm(d))
      ++groups[reasonGroup(d)];
  std::vector<std::pair<std::string, unsigned>> byCount(groups.begin(), groups.end());
  std::stable_sort(byCount.begin(), byCount.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  llvm::errs() << "hoist: " << report->brightened << " of " << report->brightenCandidates
               << " functions brightened (native); "
               << report->brightenCandidates - report->brightened
               << " stay in State form, because each:\n";
  for (const auto &[reason, count] : byCount)
    llvm::errs() << "  " << count << " " << reason << "\n";
  if (options.verbose)
    llvm::errs() << "hoist: recompiled " << report->functions << " functions ("
                 << report->instructions << " instructions; " << report->patchableEntries
                 << " entries reachable from native code) into " << options.output << "\n";
  return 0;
}

} // namespace hoist
