// Fixed sequences, each through every pipeline from 256 states: the shapes the random sequences
// are made to produce, kept so that every run checks them whatever its seed draws
// (docs/TESTING.md, "Sequences through the optimizer").
#include "SequenceChecker.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

using namespace hoist::test;

namespace {

void expectMatches(const std::vector<std::string> &lines, unsigned states = 256) {
  SequenceRun run;
  run.stateSeed = 1;
  run.states = states;
  SequenceReport report = checkSequence(lines, run);
  ASSERT_EQ(report.error, "");
  if (report.mismatchCount)
    for (Pipeline pipeline : AllPipelines) {
      SequenceRun one = run;
      one.pipelines = {pipeline};
      one.keepIr = true;
      SequenceReport alone = checkSequence(lines, one);
      if (alone.mismatchCount && std::getenv("HOIST_SEQUENCE_IR"))
        std::printf("lifted IR (%s):\n%s\n", pipelineName(pipeline), alone.liftedIr.c_str());
      ADD_FAILURE() << pipelineName(pipeline) << ": " << alone.mismatchCount << " of " << states
                    << " states mismatch";
    }
  for (const SequenceMismatch &mismatch : report.mismatches)
    ADD_FAILURE() << pipelineName(mismatch.pipeline) << ": state #" << mismatch.state << ": "
                  << mismatch.differences << " (in: " << mismatch.input << ")";
  EXPECT_EQ(report.mismatchCount, 0u);
  EXPECT_EQ(report.executions, uint64_t(states) * std::size(AllPipelines));
}

TEST(SequenceRegression, CarryThroughPartialRegisters) {
  expectMatches({"add al, bl", "adc ah, bh", "sbb cx, ax", "setb dl", "adc rdx, rcx"});
}

TEST(SequenceRegression, StoresThroughTheRegisterTheyWrite) {
  // Overlapping accesses of three widths, addresses built from the registers written.
  expectMatches({"mov ebx, 0x60002100", "xadd qword ptr [rbx], rbx", "mov ecx, 0x60002104",
                 "add byte ptr [rcx], bl", "movzx edx, word ptr [rcx-2]",
                 "xchg dword ptr [rcx-1], ecx", "sub rdx, rcx"});
}

TEST(SequenceRegression, AJumpJoinsAPathThatLeftFlagsUndefined) {
  // After the join ZF may be imul's undefined one (masked); OF is defined on both paths.
  expectMatches({"add rcx, rdx", "jc skip", "imul rcx", "skip:", "seto al", "cmovo rbx, rcx"});
}

TEST(SequenceRegression, ByteLoadThenThirtyTwoBitWriteZeroExtends) {
  // tests/lit/lift/emit-obj-zero-extension.test's code: LLVM 19's selection drops the zero
  // extension of `sbb eax, 0` in the object unless FreezeZeroExtensions runs.
  expectMatches({"mov eax, ecx", "imul r11", "jb skip", "cmc", "skip:", "mov al, r11b",
                 "cmp r11b, al", "sbb eax, 0", "adc rbx, 0"});
}

TEST(SequenceRegression, DivisionWithPreparedOperands) {
  expectMatches({"mov ebx, 7", "mov edx, 3", "div ebx", "lea eax, [eax+edx*2]", "mov cl, -3",
                 "cbw", "idiv cl", "movsx esi, ah"});
}

TEST(SequenceRegression, DivisionOnOneSideOfAJumpOnZero) {
  // Where ZF is set, cmove merges BX into AX and EDX:EAX is divided; where it is clear both are
  // skipped. The -O1 pipeline once computed the division's results on the skipping path too.
  expectMatches({"jne skip", "cmove ax, bx", "mov rsi, 0x60002879", "mov dword ptr [rsi], 0x7f",
                 "mov edx, 0x0", "div dword ptr [rsi]", "skip:", "sub ah, bl"});
}

} // namespace
