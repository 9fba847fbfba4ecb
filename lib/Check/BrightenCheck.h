// The differential check of brightening (`hoist lift --brighten --brighten-check`,
// docs/BRIGHTEN.md): each brightened function runs in an in-process JIT against the lift of the
// same machine code (the State form, faithful to the CPU) on random arguments, with memory
// through a shared scratch heap and imports stubbed the same way for both; a function whose two
// runs differ in any trial is reported, so that brightening declines it.
#pragma once

#include "Brighten/Brighten.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hoist {

class DiagnosticSink;
class Image;

struct BrightenCheckOptions {
  /// Mixed with each function's address into the seed of its trials; the same seed gives the
  /// same arguments, heap and verdicts.
  uint64_t seed = 0;
  unsigned trialsPerFunction = 16;
  /// Each run's time limit: a run past it (an endless loop) is a trial without a verdict.
  unsigned millisecondsPerRun = 250;
};

struct BrightenCheckReport {
  /// The functions whose brightened form computed something else, by entry: what differed.
  std::map<uint64_t, std::string> differs;
  unsigned checked = 0, passed = 0, unchecked = 0;
};

/// Runs the check over `functions` (BrightenReport::functions): `brightened` is the module
/// brightening left, `lifted` the module before it. Both are consumed (stubs are added and they
/// are compiled). Each difference is a `brighten-check-differs` warning, each function without
/// a verdict a `brighten-check-unchecked` note, and the totals a `brighten-check` note. An
/// Error only for what keeps the whole check from running (no JIT for the host).
llvm::Expected<BrightenCheckReport> checkBrightenedFunctions(
    std::unique_ptr<llvm::Module> lifted, std::unique_ptr<llvm::Module> brightened,
    const Image &image, const std::vector<BrightenedFunction> &functions,
    CallingConvention convention, const BrightenCheckOptions &options, DiagnosticSink &diagnostics);

} // namespace hoist
