// Diagnostics collected while Hoist works: a run never aborts on a bad instruction or block, it
// records what happened and goes on. The CLI prints them and writes them as JSON; a library
// user reads them from the sink it passed in.
#pragma once

#include <llvm/Support/JSON.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hoist {

enum class Severity { Note, Warning, Error };

struct Diagnostic {
  Severity severity;
  std::string code;             ///< stable machine-readable kind, e.g. "unsupported-instruction"
  std::optional<uint64_t> address;
  std::string message;          ///< names the instruction text where there is one
};

class DiagnosticSink {
public:
  void report(Severity severity, std::string code, std::optional<uint64_t> address,
              std::string message);
  void warning(std::string code, std::optional<uint64_t> address, std::string message) {
    report(Severity::Warning, std::move(code), address, std::move(message));
  }
  void error(std::string code, std::optional<uint64_t> address, std::string message) {
    report(Severity::Error, std::move(code), address, std::move(message));
  }

  const std::vector<Diagnostic> &all() const { return diagnostics_; }
  size_t count(Severity severity) const;

  llvm::json::Array toJSON() const;

private:
  std::vector<Diagnostic> diagnostics_;
};

const char *severityName(Severity severity);

} // namespace hoist
