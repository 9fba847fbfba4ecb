// The part of a lift after discovery, shared by liftProgram (include/hoist/Program.h) and
// `hoist lift`: lift the functions (concolically where asked), their callees, brighten,
// optimize, verify. The command line adds what the public request does not carry: the
// deobfuscation's own options, and the figures it writes to its diagnostics file.
#pragma once

#include "Brighten/CallingConvention.h"
#include "Check/BrightenCheck.h"
#include "Deobf/Concolic/ConcolicLifter.h"
#include "Deobf/Passes/DeobfPasses.h"
#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"
#include "hoist/Progress.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <memory>
#include <optional>
#include <vector>

namespace hoist {

struct LiftSteps {
  bool all = false;            ///< the functions were discovered, not named: a failure is a diagnostic
  bool callees = true;
  unsigned optLevel = 0;
  std::optional<CallingConvention> brighten = std::nullopt;
  bool keepLifted = false;     ///< with brighten: BrightenOutput::keepLifted
  /// With brighten: BrightenOutput::dataAtOriginalAddresses.
  bool dataAtOriginalAddresses = false;
  /// With brighten: run each brightened function against its lift first (the differential
  /// check, lib/Check) and decline those whose runs differ.
  std::optional<BrightenCheckOptions> brightenCheck = std::nullopt;
  /// With brighten: BrightenOutput::injectFaultInto (a test hook of the check).
  std::string injectFaultInto = {};
  /// The named functions, lifted concolically.
  std::optional<DeobfuscateOptions> concolic = std::nullopt;
  bool deobfuscationPasses = false;
  std::vector<AddPasses> roundPasses = {};   ///< the caller's own, after deobfuscation's
};

/// Where the pipeline reports what the CLI writes out; each may be null.
struct LiftTrace {
  PhaseProfile *profile = nullptr;
  std::vector<DeobfuscationStats> *concolic = nullptr;
  DeobfuscationPassStats *passes = nullptr;
  Progress *progress = nullptr;   ///< each phase, and the functions lifted
};

/// `named` are the functions asked for, `entries` those to lift (named first, as
/// Lifter::discover returns them). The module is verified when brightening or optimization
/// changed it; a failure there is a Hoist bug, reported as an Error.
llvm::Expected<std::unique_ptr<llvm::Module>>
liftDiscovered(const Image &image, Lifter &lifter, const std::vector<uint64_t> &named,
               const std::vector<uint64_t> &entries, const LiftSteps &steps,
               DiagnosticSink &diagnostics, LiftTrace trace = {});

/// What liftDiscovered does once the functions are lifted and the module taken: brighten,
/// optimize, verify and tidy it as `steps` asks, within the deadline of `budgets`. `hoist
/// report` brightens a copy of the lifted module this way, to show both.
llvm::Error finishLiftedModule(llvm::Module &module, const Image &image, const LiftSteps &steps,
                               const LiftOptions &budgets, DiagnosticSink &diagnostics,
                               LiftTrace trace = {});

} // namespace hoist
