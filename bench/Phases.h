// The phases hoist-bench measures, each over one loaded image (bench/README.md lists them).
#pragma once

#include "hoist/Image.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hoist::bench {

struct PhaseRequest {
  std::string phase;
  /// Lift phases: lift this many functions, evenly spread over the discovered ones (0: all).
  uint64_t sampleFunctions = 0;
  /// Lift phases: tag the IR with `!hoist.pc` (LiftOptions::pcMetadata), as `hoist lift
  /// --annotate`, brightening and deobfuscation do.
  bool pcMetadata = false;
};

struct PhaseResult {
  uint64_t instructions = 0;     ///< instructions the phase processed
  uint64_t functions = 0;        ///< functions it lifted or discovered (0 for decode phases)
  uint64_t functionsInProgram = 0;
  uint64_t writesMispredicted = 0;   ///< lift phases: functions lifted twice (LiftStats)
  double seconds = 0;            ///< the timed work alone (loading the image is not in it)
  double liftSeconds = 0;        ///< lift phases: lifting, of `seconds`
  double optimizeSeconds = 0;    ///< lift phases: optimizing, of `seconds`
  /// The same three as CPU time of the process: on a shared machine wall time also counts
  /// the time other processes had the core, CPU time only this one's work.
  double cpuSeconds = 0;
  double liftCpuSeconds = 0;
  double optimizeCpuSeconds = 0;
};

/// The phase names, in the order the table shows them.
const std::vector<std::string> &phaseNames();

llvm::Expected<PhaseResult> runPhase(const Image &image, const PhaseRequest &request);

} // namespace hoist::bench
