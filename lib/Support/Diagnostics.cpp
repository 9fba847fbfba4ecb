#include "Support/Diagnostics.h"

#include "Support/Error.h"

namespace hoist {

const char *severityName(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "unknown";
}

void DiagnosticSink::report(Severity severity, std::string code, std::optional<uint64_t> address,
                            std::string message) {
  diagnostics_.push_back({severity, std::move(code), address, std::move(message)});
}

size_t DiagnosticSink::count(Severity severity) const {
  size_t n = 0;
  for (const Diagnostic &d : diagnostics_)
    n += d.severity == severity;
  return n;
}

llvm::json::Array DiagnosticSink::toJSON() const {
  llvm::json::Array out;
  for (const Diagnostic &d : diagnostics_) {
    llvm::json::Object entry{{"severity", severityName(d.severity)},
                             {"code", d.code},
                             {"message", d.message}};
    entry["address"] = d.address ? llvm::json::Value(formatAddress(*d.address)) : nullptr;
    out.push_back(std::move(entry));
  }
  return out;
}

PhaseProfile::Scope::~Scope() {
  std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start_;
  profile_.add(phase_, elapsed.count());
}

void PhaseProfile::add(const std::string &phase, double milliseconds) {
  for (auto &[name, total] : phases_)
    if (name == phase) {
      total += milliseconds;
      return;
    }
  phases_.emplace_back(phase, milliseconds);
}

llvm::json::Object PhaseProfile::toJSON() const {
  llvm::json::Object out;
  for (const auto &[name, total] : phases_)
    out[name] = total;
  return out;
}

} // namespace hoist
