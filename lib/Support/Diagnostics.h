// The public diagnostics (include/hoist/Diagnostics.h) and the per-phase timing of the CLI.
#pragma once

#include "hoist/Diagnostics.h"

#include <llvm/Support/JSON.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace hoist {

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
