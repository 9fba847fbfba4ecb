// The command line's printing of diagnostics (DiagnosticReport.h).
#include "DiagnosticReport.h"

#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <map>
#include <vector>

namespace hoist {
namespace {

/// The addresses a summary line shows for its code; the rest are in --diagnostics.
constexpr size_t AddressesPerCode = 3;

struct CodeSummary {
  std::string code;
  size_t count = 0;
  std::vector<uint64_t> firstAddresses;
};

void printOne(const Diagnostic &d, llvm::raw_ostream &out) {
  out << "hoist: " << severityName(d.severity) << ": " << d.message << "\n";
}

/// The diagnostics of `severity` by code, the most frequent first (then by code, so the order
/// is stable).
std::vector<CodeSummary> summariseByCode(const DiagnosticSink &diagnostics, Severity severity) {
  std::map<std::string, CodeSummary> byCode;
  for (const Diagnostic &d : diagnostics.all()) {
    if (d.severity != severity)
      continue;
    CodeSummary &summary = byCode[d.code];
    summary.code = d.code;
    ++summary.count;
    if (d.address && summary.firstAddresses.size() < AddressesPerCode)
      summary.firstAddresses.push_back(*d.address);
  }
  std::vector<CodeSummary> summaries;
  for (auto &[code, summary] : byCode)
    summaries.push_back(std::move(summary));
  std::stable_sort(summaries.begin(), summaries.end(),
                   [](const CodeSummary &a, const CodeSummary &b) { return a.count > b.count; });
  return summaries;
}

} // namespace

std::string withThousands(uint64_t count) {
  std::string digits = std::to_string(count);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

/// "hoist: 25 warnings, by code ..." and a line per code.
static void printSummary(const DiagnosticSink &diagnostics, Severity severity, llvm::StringRef plural,
                  llvm::raw_ostream &out) {
  out << "hoist: " << withThousands(diagnostics.count(severity)) << " " << plural
      << ", by code (--max-warnings N prints up to N in full; --diagnostics FILE.json "
         "lists every one):\n";
  for (const CodeSummary &summary : summariseByCode(diagnostics, severity)) {
    out << "hoist:   " << summary.code << ": " << withThousands(summary.count);
    if (!summary.firstAddresses.empty()) {
      std::vector<std::string> addresses;
      for (uint64_t address : summary.firstAddresses)
        addresses.push_back(formatAddress(address));
      out << " (at " << llvm::join(addresses, ", ")
          << (summary.count > summary.firstAddresses.size() ? ", ..." : "") << ")";
    }
    out << "\n";
  }
}

void printDiagnostics(const DiagnosticSink &diagnostics, unsigned maxWarnings,
                      llvm::raw_ostream &out) {
  // Warnings and notes past the limit are summarised by code (a concolic lift notes every
  // read of writable data it leaves symbolic: hundreds in a large function).
  bool summariseWarnings = diagnostics.count(Severity::Warning) > maxWarnings;
  bool summariseNotes = diagnostics.count(Severity::Note) > maxWarnings;
  for (const Diagnostic &d : diagnostics.all())
    if (!(summariseWarnings && d.severity == Severity::Warning) &&
        !(summariseNotes && d.severity == Severity::Note))
      printOne(d, out);
  if (summariseWarnings)
    printSummary(diagnostics, Severity::Warning, "warnings", out);
  if (summariseNotes)
    printSummary(diagnostics, Severity::Note, "notes", out);
}

} // namespace hoist
