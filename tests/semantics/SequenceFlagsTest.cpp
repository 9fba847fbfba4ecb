// The sequence tests' own checks: which flags the analysis masks where (SequenceFlags.h), that
// the generator's sequences assemble and never test a flag they may have left undefined, and
// that the checker catches a wrong lift in every pipeline.
#include "Assembler.h"
#include "CodeLayout.h"
#include "Decode/Decoder.h"
#include "SequenceChecker.h"
#include "SequenceFlags.h"
#include "SequenceGenerator.h"

#include <gtest/gtest.h>

using namespace hoist;
using namespace hoist::test;

namespace {

std::vector<Instr> decoded(const std::vector<std::string> &lines) {
  llvm::Expected<AssembledSequence> assembled = assembleSequence(lines);
  EXPECT_TRUE(bool(assembled)) << llvm::toString(assembled.takeError());
  std::vector<Instr> code;
  if (!assembled)
    return code;
  Decoder decoder;
  for (uint64_t offset : assembled->offsets) {
    Instr instr;
    EXPECT_EQ(decoder.decode(assembled->bytes.data() + offset, assembled->bytes.size() - offset,
                             layout::InstructionAddress + offset, instr),
              DecodeStatus::Ok);
    code.push_back(instr);
  }
  return code;
}

constexpr uint32_t ImulUndefined = FlagSF | FlagZF | FlagAF | FlagPF;

TEST(SequenceFlags, AFlagLeftUndefinedIsMaskedAtTheEnd) {
  SequenceFlags flags = sequenceFlags(decoded({"imul rax, rbx"}));
  EXPECT_EQ(flags.undefinedBefore.front(), 0u);
  EXPECT_EQ(flags.undefinedBefore.back(), ImulUndefined);
}

TEST(SequenceFlags, AFlagDefinedLaterIsCompared) {
  SequenceFlags flags = sequenceFlags(decoded({"imul rax, rbx", "add rcx, rdx"}));
  EXPECT_EQ(flags.undefinedBefore[1], ImulUndefined);
  EXPECT_EQ(flags.undefinedBefore.back(), 0u);
}

TEST(SequenceFlags, AShiftByClMayLeaveEverythingAsItWas) {
  // A count of 0 changes no flag, so the shift defines none; counts above 1 leave OF and AF
  // undefined. The imul's undefined flags stay masked through it.
  SequenceFlags flags = sequenceFlags(decoded({"imul rax, rbx", "shl rdx, cl"}));
  EXPECT_EQ(flags.undefinedBefore.back(), ImulUndefined | FlagOF);
}

TEST(SequenceFlags, AJumpOverAnInstructionJoinsBothPaths) {
  SequenceFlags flags =
      sequenceFlags(decoded({"add rax, rbx", "je skip", "imul rax, rbx", "skip:", "nop"}));
  EXPECT_EQ(flags.undefinedBefore[1], 0u);
  EXPECT_EQ(flags.undefinedBefore[3], ImulUndefined);   // the nop, reached from both
  EXPECT_EQ(flags.readsUndefined, -1);
}

TEST(SequenceFlags, TestingAnUndefinedFlagIsFound) {
  SequenceFlags flags = sequenceFlags(decoded({"imul rax, rbx", "sete cl"}));
  EXPECT_EQ(flags.readsUndefined, 1);
  flags = sequenceFlags(decoded({"mul rbx", "jz skip", "nop", "skip:"}));
  EXPECT_EQ(flags.readsUndefined, 1);
}

TEST(SequenceGenerator, SequencesAssembleAndTestOnlyDefinedFlags) {
  SequenceGenerator generator(sequenceForms());
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Sequence sequence = generator.generate(seed);
    EXPECT_GE(sequence.stepCount(), 5u);
    EXPECT_LE(sequence.stepCount(), 30u);
    std::vector<Instr> code = decoded(sequence.lines());
    ASSERT_FALSE(code.empty()) << sequence.text();
    EXPECT_EQ(sequenceFlags(code).readsUndefined, -1) << "seed " << seed << ": " << sequence.text();
  }
}

TEST(SequenceGenerator, TheSameSeedGivesTheSameSequence) {
  SequenceGenerator generator(sequenceForms());
  EXPECT_EQ(generator.generate(42).text(), generator.generate(42).text());
  EXPECT_NE(generator.generate(42).text(), generator.generate(43).text());
}

TEST(SequenceChecker, AWrongLiftIsCaughtInEveryPipeline) {
  // The CPU runs adc, the lift is of add: CF carried from the first instruction is dropped.
  std::vector<std::string> native = {"add rax, rbx", "adc rcx, rdx", "setc r8b"};
  std::vector<std::string> wrong = {"add rax, rbx", "add rcx, rdx", "setc r8b"};
  SequenceRun run;
  run.stateSeed = 7;
  run.states = 64;
  run.liftedLines = &wrong;
  SequenceReport report = checkSequence(native, run);
  ASSERT_EQ(report.error, "");
  EXPECT_GT(report.mismatchCount, 0u);
  for (Pipeline pipeline : AllPipelines) {
    SequenceRun one = run;
    one.pipelines = {pipeline};
    EXPECT_GT(checkSequence(native, one).mismatchCount, 0u) << pipelineName(pipeline);
  }
}

TEST(SequenceChecker, AStoreToTheWrongAliasIsCaught) {
  // The address comes from rbx before the instruction writes it; the lift here uses the
  // written value, which a lifter that recomputed the address would do.
  std::vector<std::string> native = {"mov ebx, 0x60002100", "mov qword ptr [rbx+8], 1",
                                     "xadd qword ptr [rbx], rbx"};
  std::vector<std::string> wrong = {"mov ebx, 0x60002100", "mov qword ptr [rbx+8], 1",
                                    "xadd qword ptr [rbx+8], rbx"};
  SequenceRun run;
  run.stateSeed = 3;
  run.states = 8;
  run.liftedLines = &wrong;
  SequenceReport report = checkSequence(native, run);
  ASSERT_EQ(report.error, "");
  EXPECT_EQ(report.mismatchCount, run.states * std::size(AllPipelines));
}

TEST(SequenceChecker, ASequenceLiftedFaithfullyPasses) {
  SequenceRun run;
  run.stateSeed = 11;
  run.states = 64;
  SequenceReport report = checkSequence(
      {"add al, bl", "adc ah, bh", "setc cl", "sbb eax, eax", "imul ecx", "jo skip",
       "movzx edx, ax", "skip:", "cmovb rsi, rdx"},
      run);
  EXPECT_TRUE(report.passed()) << report.error
                               << (report.mismatches.empty() ? ""
                                                             : report.mismatches[0].differences);
  EXPECT_EQ(report.executions, run.states * std::size(AllPipelines));
}

} // namespace
