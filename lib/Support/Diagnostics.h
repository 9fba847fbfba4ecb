// Diagnostics collected while Hoist works: a run never aborts on a bad instruction or block, it
// records what happened and goes on. The CLI prints them and writes them as JSON.
#pragma once

#include <llvm/Support/JSON.h>

#include <chrono>
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

/// Wall time per named phase, in the order the phases first ran.
class PhaseProfile {
public:
  class Scope {
  public:
    Scope(PhaseProfile &profile, std::string phase)
        : profile_(profile), phase_(std::move(phase)), start_(std::chrono::steady_clock::now()) {}
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    PhaseProfile &profile_;
    std::string phase_;
    std::chrono::steady_clock::time_point start_;
  };

  Scope time(std::string phase) { return Scope(*this, std::move(phase)); }
  void add(const std::string &phase, double milliseconds);
  llvm::json::Object toJSON() const;

private:
  std::vector<std::pair<std::string, double>> phases_;
};

} // namespace hoist
