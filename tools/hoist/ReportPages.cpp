#include "ReportPages.h"

#include "HtmlText.h"
#include "ReportAssets.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <optional>

namespace hoist {
namespace {

/// Lowercase hex digits without a prefix: the addresses in element ids and `data-pc`.
std::string hex(uint64_t address) { return llvm::utohexstr(address, /*LowerCase=*/true); }

std::string shownAddress(uint64_t address) { return "0x" + hex(address); }

void pageStart(llvm::StringRef title, llvm::raw_ostream &out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
      << htmlEscaped(title) << "</title>\n<style>" << reportStyle() << "</style>\n<script>"
      << reportErrorCatcher() << "</script>\n</head>\n<body>\n";
}

/// The address an annotation comment of AnnotatedIR.h names: `  ; 0x1181: mov eax, edi`.
std::optional<std::string> annotatedAddress(llvm::StringRef line) {
  llvm::StringRef rest = line.ltrim();
  if (!rest.consume_front("; 0x"))
    return std::nullopt;
  size_t digits = rest.find_first_not_of("0123456789abcdef");
  if (digits == 0 || digits == llvm::StringRef::npos || rest[digits] != ':')
    return std::nullopt;
  return rest.take_front(digits).str();
}

/// Annotated IR, a line per element. The IR after an annotation comment is that instruction's
/// (`data-pc`), up to the next comment or the end of the block: a label, a blank line, or the
/// function's closing brace.
void writeIRListing(llvm::StringRef id, llvm::StringRef ir, llvm::raw_ostream &out) {
  out << "<pre class=\"listing\" id=\"" << id << "\">";
  std::optional<std::string> current;
  llvm::SmallVector<llvm::StringRef> lines;
  ir.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (std::optional<std::string> address = annotatedAddress(line))
      current = address;
    else if (line.empty() || !llvm::isSpace(line.front()))
      current.reset();   // a label, a `define` or `}`: no instruction's
    if (current)
      out << "<span class=\"ir\" data-pc=\"" << *current << "\">";
    else
      out << "<span>";
    out << htmlEscaped(line) << "</span>";
  }
  out << "</pre>\n";
}

void writeAssembly(const FunctionReport &function, llvm::raw_ostream &out) {
  out << "<pre class=\"listing\" id=\"assembly\">";
  std::optional<uint64_t> block;
  for (const ReportInstruction &instruction : function.instructions) {
    if (instruction.block != block) {
      block = instruction.block;
      out << "<span class=\"block\">block " << shownAddress(*block) << "</span>";
    }
    out << "<a class=\"asm\" id=\"asm-" << hex(instruction.address) << "\" data-pc=\""
        << hex(instruction.address) << "\" data-block=\"" << hex(instruction.block)
        << "\" href=\"#" << shownAddress(instruction.address) << "\">"
        << llvm::formatv("{0,-8}", hex(instruction.address)) << htmlEscaped(instruction.text)
        << "</a>";
  }
  if (function.instructions.empty())
    out << "<span>(discovery did not explore this function)</span>";
  out << "</pre>\n";
}

const char *severityClass(Severity severity) {
  switch (severity) {
  case Severity::Note: return "note";
  case Severity::Warning: return "warning";
  case Severity::Error: return "error";
  }
  return "note";
}

void writeDiagnostics(const std::vector<Diagnostic> &diagnostics, llvm::raw_ostream &out) {
  if (diagnostics.empty()) {
    out << "<p>None.</p>\n";
    return;
  }
  out << "<table class=\"diagnostics\">\n<tr><th>severity</th><th>code</th><th>address</th>"
         "<th>message</th></tr>\n";
  for (const Diagnostic &diagnostic : diagnostics) {
    out << "<tr class=\"" << severityClass(diagnostic.severity) << "\"><td>"
        << severityName(diagnostic.severity) << "</td><td>" << htmlEscaped(diagnostic.code)
        << "</td><td class=\"address\">";
    if (diagnostic.address)
      out << shownAddress(*diagnostic.address);
    out << "</td><td>" << htmlEscaped(diagnostic.message) << "</td></tr>\n";
  }
  out << "</table>\n";
}

std::string optLevelName(unsigned level) { return "-O" + std::to_string(level); }

/// Counts as bars, the largest first: a row per key, `data-key` and `data-count` for scripts.
void writeHistogram(llvm::StringRef id, const std::map<std::string, uint64_t> &counts,
                    llvm::raw_ostream &out) {
  if (counts.empty()) {
    out << "<p id=\"" << id << "\">None.</p>\n";
    return;
  }
  std::vector<std::pair<std::string, uint64_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  uint64_t largest = sorted.front().second;
  out << "<table id=\"" << id << "\">\n";
  for (const auto &[key, count] : sorted)
    out << "<tr data-key=\"" << htmlEscaped(key) << "\" data-count=\"" << count << "\"><td>"
        << htmlEscaped(key) << "</td><td class=\"number\">" << count
        << "</td><td><span class=\"bar\" style=\"width: "
        << std::max<uint64_t>(1, count * 300 / largest) << "px\"></span></td></tr>\n";
  out << "</table>\n";
}

/// A decline's reason without what differs from function to function, so that the same reason
/// counts once: addresses and `fn_` names become "0x…" and "fn_…", and a callee's name before
/// its address ("calls xmalloc at 0x…", "refers to xmalloc at 0x…") becomes "…".
std::string declineKind(llvm::StringRef reason) {
  std::string kind;
  for (size_t i = 0; i < reason.size();) {
    llvm::StringRef rest = reason.drop_front(i);
    if (rest.starts_with("0x") || rest.starts_with("fn_")) {
      size_t prefix = rest.starts_with("0x") ? 2 : 3;
      size_t digits = rest.drop_front(prefix).find_first_not_of("0123456789abcdefABCDEF");
      if (digits == llvm::StringRef::npos)
        digits = rest.size() - prefix;
      kind += rest.take_front(prefix).str() + "\u2026";
      i += prefix + digits;
      continue;
    }
    kind += reason[i++];
  }
  const std::string at = " at 0x\u2026", elided = "\u2026";
  for (size_t found = kind.find(at); found != std::string::npos;
       found = kind.find(at, found + at.size())) {
    size_t word = found == 0 ? std::string::npos : kind.rfind(' ', found - 1);
    if (word == std::string::npos)
      continue;
    llvm::StringRef before = llvm::StringRef(kind).take_front(word);
    if (!before.ends_with(" calls") && !before.ends_with("calls") && !before.ends_with(" to"))
      continue;
    kind.replace(word + 1, found - word - 1, elided);
    found = word + 1 + elided.size();
  }
  return kind;
}

} // namespace

void writeFunctionPage(const ProgramReport &program, const FunctionReport &function,
                       llvm::raw_ostream &out) {
  pageStart(function.name + " " + shownAddress(function.entry) + " - hoist report", out);
  out << "<nav><a href=\"index.html\">all functions</a> &middot; "
      << htmlEscaped(program.binary) << "</nav>\n<h1>" << htmlEscaped(function.name)
      << " <span class=\"address\">" << shownAddress(function.entry) << "</span></h1>\n"
      << "<p>" << function.blocks << " blocks, " << function.instructions.size()
      << " instructions, " << function.jumpTables << " jump tables, "
      << function.unresolvedJumps.size()
      << " unresolved jumps. Select an instruction to see its IR and its block.</p>\n";

  out << "<h2>Control flow</h2>\n<div id=\"graph\">";
  if (function.svg.empty())
    out << "<p>" << htmlEscaped(function.graphNote) << "</p>";
  else
    out << function.svg;
  out << "</div>\n";

  out << "<div class=\"listings\">\n<section class=\"assembly\">\n<h2>Assembly</h2>\n";
  writeAssembly(function, out);
  out << "</section>\n<section>\n<h2>Lifted IR (" << optLevelName(program.optLevel)
      << ")</h2>\n";
  writeIRListing("lifted", function.liftedIR, out);
  out << "</section>\n<section>\n<h2>Brightened IR (" << htmlEscaped(program.convention)
      << ")</h2>\n";
  if (function.brightened())
    writeIRListing("brightened", function.brightenedIR, out);
  else
    out << "<p class=\"declined\" id=\"not-brightened\">Not brightened: "
        << htmlEscaped(function.notBrightened) << "</p>\n";
  out << "</section>\n</div>\n";

  out << "<h2>Diagnostics</h2>\n";
  writeDiagnostics(function.diagnostics, out);
  out << "<script>" << reportSelectionScript() << "</script>\n</body>\n</html>\n";
}

void writeIndexPage(const ProgramReport &program, llvm::raw_ostream &out) {
  pageStart("hoist report: " + program.binary, out);
  out << "<h1>hoist report: <code>" << htmlEscaped(program.binary) << "</code></h1>\n";

  uint64_t instructions = 0, jumpTables = 0, unresolved = 0, brightened = 0;
  std::map<std::string, uint64_t> declines;
  for (const FunctionReport &function : program.functions) {
    instructions += function.instructions.size();
    jumpTables += function.jumpTables;
    unresolved += function.unresolvedJumps.size();
    if (function.brightened())
      ++brightened;
    else
      ++declines[declineKind(function.notBrightened)];
  }
  std::map<std::string, uint64_t> codes;
  for (const Diagnostic &diagnostic : program.diagnostics)
    ++codes[diagnostic.code];
  size_t functions = program.functions.size();

  out << "<h2>Summary</h2>\n<table id=\"summary\">\n"
      << "<tr><th>functions</th><td class=\"number\" id=\"functions\">" << functions
      << "</td></tr>\n"
      << "<tr><th>instructions in their blocks</th><td class=\"number\" id=\"instructions\">"
      << instructions << "</td></tr>\n"
      << "<tr><th>instructions lifted</th><td class=\"number\" id=\"instructions-lifted\">"
      << program.instructionsLifted << "</td></tr>\n"
      << "<tr><th>jump tables</th><td class=\"number\" id=\"jump-tables\">" << jumpTables
      << "</td></tr>\n"
      << "<tr><th>unresolved jumps</th><td class=\"number\" id=\"unresolved-jumps\">"
      << unresolved << "</td></tr>\n"
      << "<tr><th>brightened (" << htmlEscaped(program.convention)
      << ")</th><td class=\"number\" id=\"brightened\">" << brightened << "</td><td>of "
      << functions << " ("
      << llvm::formatv("{0:f1}", functions ? 100.0 * brightened / functions : 0.0)
      << "%)</td></tr>\n</table>\n";
  if (!program.brightenFailure.empty())
    out << "<p class=\"error\">Brightening failed: " << htmlEscaped(program.brightenFailure)
        << "</p>\n";

  out << "<h2>Functions</h2>\n<table id=\"function-list\">\n<tr><th>function</th>"
         "<th>entry</th><th>blocks</th><th>instructions</th><th>jump tables</th>"
         "<th>unresolved jumps</th><th>brightened</th><th>diagnostics</th></tr>\n";
  for (const FunctionReport &function : program.functions)
    out << "<tr class=\"function\" data-entry=\"" << hex(function.entry)
        << "\" data-blocks=\"" << function.blocks << "\" data-instructions=\""
        << function.instructions.size() << "\" data-jump-tables=\"" << function.jumpTables
        << "\" data-unresolved=\"" << function.unresolvedJumps.size() << "\" data-brightened=\""
        << (function.brightened() ? "yes" : "no") << "\"><td><a href=\"" << function.page
        << "\">" << htmlEscaped(function.name) << "</a></td><td class=\"address\">"
        << shownAddress(function.entry) << "</td><td class=\"number\">" << function.blocks
        << "</td><td class=\"number\">" << function.instructions.size()
        << "</td><td class=\"number\">" << function.jumpTables << "</td><td class=\"number\">"
        << function.unresolvedJumps.size() << "</td><td>"
        << (function.brightened() ? "yes" : "<span class=\"declined\">no</span>")
        << "</td><td class=\"number\">" << function.diagnostics.size() << "</td></tr>\n";
  out << "</table>\n";

  out << "<h2>Unresolved jumps</h2>\n";
  if (!unresolved) {
    out << "<p id=\"unresolved-list\">None.</p>\n";
  } else {
    out << "<table id=\"unresolved-list\">\n<tr><th>function</th><th>jump</th><th>reason</th>"
           "</tr>\n";
    for (const FunctionReport &function : program.functions)
      for (const ReportJump &jump : function.unresolvedJumps)
        out << "<tr data-jump=\"" << hex(jump.address) << "\"><td><a href=\"" << function.page
            << "#" << shownAddress(jump.address) << "\">" << htmlEscaped(function.name)
            << "</a></td><td class=\"address\">" << shownAddress(jump.address) << "</td><td>"
            << htmlEscaped(jump.reason) << "</td></tr>\n";
    out << "</table>\n";
  }

  out << "<h2>Why functions were not brightened</h2>\n";
  writeHistogram("decline-reasons", declines, out);
  out << "<h2>Diagnostics by code</h2>\n";
  writeHistogram("diagnostic-codes", codes, out);
  out << "<h2>Instructions without semantics</h2>\n";
  writeHistogram("unsupported", {program.unsupported.begin(), program.unsupported.end()}, out);

  std::vector<Diagnostic> unplaced;
  for (const Diagnostic &diagnostic : program.diagnostics)
    if (!diagnostic.address)
      unplaced.push_back(diagnostic);
  out << "<h2>Diagnostics of the whole program</h2>\n";
  writeDiagnostics(unplaced, out);
  out << "</body>\n</html>\n";
}

} // namespace hoist
