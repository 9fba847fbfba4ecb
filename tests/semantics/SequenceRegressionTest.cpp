// Fixed sequences: mismatches the random sequences found, shrunk, each run through every
// pipeline from many states (docs/TESTING.md, "Sequences").
#include "SequenceChecker.h"

#include <gtest/gtest.h>

using namespace hoist::test;

namespace {

void expectMatches(const std::vector<std::string> &lines, unsigned states = 256) {
  SequenceRun run;
  run.stateSeed = 1;
  run.states = states;
  SequenceReport report = checkSequence(lines, run);
  ASSERT_EQ(report.error, "");
  for (const SequenceMismatch &mismatch : report.mismatches)
    ADD_FAILURE() << pipelineName(mismatch.pipeline) << ": state #" << mismatch.state << ": "
                  << mismatch.differences << " (in: " << mismatch.input << ")";
  EXPECT_EQ(report.mismatchCount, 0u);
}

TEST(SequenceRegression, CarryThroughPartialRegisters) {
  expectMatches({"add al, bl", "adc ah, bh", "sbb cx, ax", "setb dl", "adc rdx, rcx"});
}

} // namespace
