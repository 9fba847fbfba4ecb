// Random instruction sequences of the table's forms, each run on the CPU and lifted as one
// function through every pipeline (SequenceChecker.h), from HOIST_SEQUENCE_STATES states.
// Every run draws a new seed and prints it; a mismatching sequence is reported with the
// environment that reproduces it alone and shrunk to the steps that matter.
//
// Environment: HOIST_SEQUENCE_SEED (the run's seed; default new each run), HOIST_SEQUENCE_COUNT
// (sequences; default HOIST_SEQUENCE_DEFAULT_COUNT, which ctest sets, or 400),
// HOIST_SEQUENCE_FIRST (the first sequence's number, to rerun one), HOIST_SEQUENCE_STATES
// (states per sequence, default 16), HOIST_SEQUENCE_IR=1 (print the lifted IR of a mismatch),
// HOIST_SEQUENCE_MINIMIZE=0 (report without shrinking), HOIST_SEQUENCE_PRINT=1 (print every
// sequence), HOIST_SEQUENCE_PIPELINES (a comma-separated subset of O0,O1,O2,obj).
#include "SequenceChecker.h"
#include "SequenceGenerator.h"
#include "SequenceMinimizer.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FormatVariadic.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

using namespace hoist::test;

namespace {

uint64_t environmentNumber(const char *name, uint64_t fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::strtoull(value, nullptr, 0) : fallback;
}

/// Sequence `number` of the run with `seed`: SplitMix64's finalizer of both, so that
/// neighbouring numbers and seeds give unrelated sequences.
uint64_t sequenceSeed(uint64_t seed, uint64_t number) {
  uint64_t z = seed + (number + 1) * 0x9e3779b97f4a7c15;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

/// HOIST_SEQUENCE_PIPELINES, e.g. "O2,obj": the pipelines to run (default all four).
std::vector<Pipeline> selectedPipelines() {
  const char *names = std::getenv("HOIST_SEQUENCE_PIPELINES");
  if (!names || !*names)
    return {std::begin(AllPipelines), std::end(AllPipelines)};
  std::vector<Pipeline> pipelines;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(names).split(parts, ',');
  for (llvm::StringRef part : parts) {
    if (part == "O0")
      pipelines.push_back(Pipeline::O0);
    else if (part == "O1")
      pipelines.push_back(Pipeline::O1);
    else if (part == "O2")
      pipelines.push_back(Pipeline::O2);
    else if (part == "obj")
      pipelines.push_back(Pipeline::Object);
    else
      ADD_FAILURE() << "HOIST_SEQUENCE_PIPELINES: unknown pipeline '" << part.str()
                    << "' (O0, O1, O2 or obj)";
  }
  return pipelines;
}

constexpr unsigned ReportedSequences = 5;

struct SequenceTotals {
  uint64_t sequences = 0, steps = 0, instructions = 0, executions = 0, nativeFaults = 0;
  uint64_t mismatchingSequences = 0, mismatches = 0, notRun = 0, harnessErrors = 0;
};

std::string describeMismatches(const SequenceReport &report) {
  std::string out;
  for (const SequenceMismatch &mismatch : report.mismatches)
    out += llvm::formatv("  {0}: state #{1}: {2}\n    (in: {3})\n", pipelineName(mismatch.pipeline),
                         mismatch.state, mismatch.differences, mismatch.input)
               .str();
  return out;
}

TEST(Sequences, MatchTheCpuThroughEveryPipeline) {
  const char *fixed = std::getenv("HOIST_SEQUENCE_SEED");
  std::random_device entropy;
  uint64_t seed = fixed && *fixed ? std::strtoull(fixed, nullptr, 0)
                                  : uint64_t(entropy()) << 32 | entropy();
  uint64_t count = environmentNumber(
      "HOIST_SEQUENCE_COUNT", environmentNumber("HOIST_SEQUENCE_DEFAULT_COUNT", 400));
  uint64_t first = environmentNumber("HOIST_SEQUENCE_FIRST", 0);
  unsigned states = unsigned(environmentNumber("HOIST_SEQUENCE_STATES", 16));
  bool minimize = environmentNumber("HOIST_SEQUENCE_MINIMIZE", 1) != 0;
  bool printIr = environmentNumber("HOIST_SEQUENCE_IR", 0) != 0;
  bool printSequences = environmentNumber("HOIST_SEQUENCE_PRINT", 0) != 0;
  std::vector<Pipeline> pipelines = selectedPipelines();
  std::printf("sequences: HOIST_SEQUENCE_SEED=0x%llx reproduces this run (%llu sequences from "
              "#%llu, %u states each)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(count),
              static_cast<unsigned long long>(first), states);
  std::fflush(stdout);

  SequenceGenerator generator(sequenceForms());
  SequenceTotals totals;
  auto start = std::chrono::steady_clock::now();
  for (uint64_t number = first; number < first + count; ++number) {
    uint64_t thisSeed = sequenceSeed(seed, number);
    Sequence sequence = generator.generate(thisSeed);
    if (printSequences)
      std::printf("#%llu: %s\n", static_cast<unsigned long long>(number),
                  sequence.text().c_str());
    SequenceRun run;
    run.stateSeed = thisSeed;
    run.states = states;
    run.keepIr = printIr;
    run.pipelines = pipelines;
    SequenceReport report = checkSequence(sequence.lines(), run);
    ++totals.sequences;
    totals.steps += sequence.stepCount();
    totals.instructions += report.instructions;
    totals.executions += report.executions;
    totals.nativeFaults += report.nativeFaults;
    totals.harnessErrors += report.harnessErrors;
    totals.mismatches += report.mismatchCount;
    if (report.passed())
      continue;
    totals.notRun += !report.error.empty();
    if (++totals.mismatchingSequences > ReportedSequences)
      continue;
    std::string reproduce =
        llvm::formatv("HOIST_SEQUENCE_SEED={0:x} HOIST_SEQUENCE_FIRST={1} HOIST_SEQUENCE_COUNT=1",
                      seed, number)
            .str();
    std::string shrunk;
    if (minimize && report.error.empty() && !report.mismatches.empty()) {
      const SequenceMismatch &mismatch = report.mismatches.front();
      Sequence smallest =
          minimizeSequence(sequence, run, mismatch.pipeline, mismatch.state);
      SequenceRun again = run;
      again.pipelines = {mismatch.pipeline};
      again.onlyState = int(mismatch.state);
      shrunk = "  shrunk to: " + smallest.text() + "\n" +
               describeMismatches(checkSequence(smallest.lines(), again));
    }
    ADD_FAILURE() << "sequence #" << number << " (" << reproduce << "): " << sequence.text()
                  << "\n"
                  << (report.error.empty() ? "" : "  " + report.error + "\n")
                  << describeMismatches(report) << "  " << report.mismatchCount
                  << " mismatching runs, " << report.harnessErrors << " harness errors\n"
                  << shrunk << (printIr ? "lifted IR:\n" + report.liftedIr : "");
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("sequences: %llu sequences, %llu steps, %llu instructions, %llu executions "
              "(%llu native faults), %llu mismatches in %llu sequences, %llu not run, "
              "%llu harness errors, %.1f s\n",
              static_cast<unsigned long long>(totals.sequences),
              static_cast<unsigned long long>(totals.steps),
              static_cast<unsigned long long>(totals.instructions),
              static_cast<unsigned long long>(totals.executions),
              static_cast<unsigned long long>(totals.nativeFaults),
              static_cast<unsigned long long>(totals.mismatches),
              static_cast<unsigned long long>(totals.mismatchingSequences),
              static_cast<unsigned long long>(totals.notRun),
              static_cast<unsigned long long>(totals.harnessErrors), seconds);
  EXPECT_EQ(totals.mismatchingSequences, 0u)
      << "reproduce the run with HOIST_SEQUENCE_SEED=0x" << std::hex << seed;
}

} // namespace
