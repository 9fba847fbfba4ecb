// Runs one instruction sequence on the CPU and lifted as one function through each of Hoist's
// pipelines, from generated states, and compares the results as the table compares a form's
// (Comparison.h): every GPR, RIP, flag, vector register, MXCSR, x87 field and arena byte, and
// the outcome. Only the flags some path may have left undefined at the point where the run
// stopped (the end, or the faulting instruction) are masked (SequenceFlags.h), and the MXCSR
// and x87 exception bits any instruction of the sequence leaves unmodelled.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace hoist::test {

/// -O0, -O1 and -O2 are Hoist's optimizeModule levels, run in the JIT; Object is -O2 then the
/// `hoist lift --emit obj` code generator (lib/Brighten/EmitObject.cpp), linked by the JIT.
enum class Pipeline { O0, O1, O2, Object };
inline constexpr Pipeline AllPipelines[] = {Pipeline::O0, Pipeline::O1, Pipeline::O2,
                                            Pipeline::Object};
const char *pipelineName(Pipeline pipeline);

struct SequenceMismatch {
  Pipeline pipeline;
  unsigned state;
  std::string differences;   ///< as compareRuns says, plus the masked flags
  std::string input;         ///< the state's registers and flags
};

struct SequenceReport {
  /// Set when the sequence did not run: it does not assemble, a flag it tests may be undefined
  /// (a generator bug), or a pipeline cannot lift or compile it (a Hoist bug).
  std::string error;
  unsigned instructions = 0;
  uint64_t executions = 0;      ///< lifted runs compared
  uint64_t nativeFaults = 0;    ///< states whose native run ended in a fault
  uint64_t harnessErrors = 0;   ///< native runs that faulted in the harness, not compared
  uint64_t mismatchCount = 0;
  std::vector<SequenceMismatch> mismatches;   ///< the first few
  std::string liftedIr;   ///< of the first mismatching pipeline, when asked for

  bool passed() const { return error.empty() && mismatchCount == 0 && harnessErrors == 0; }
};

struct SequenceRun {
  uint64_t stateSeed = 0;
  unsigned states = 16;
  std::vector<Pipeline> pipelines{std::begin(AllPipelines), std::end(AllPipelines)};
  int onlyState = -1;          ///< run only this state (the minimizer), else all
  bool keepIr = false;         ///< fill SequenceReport::liftedIr
  /// The harness's own tests lift other lines than the CPU runs, to see a wrong lift caught.
  const std::vector<std::string> *liftedLines = nullptr;
};

SequenceReport checkSequence(const std::vector<std::string> &lines, const SequenceRun &run);

} // namespace hoist::test
