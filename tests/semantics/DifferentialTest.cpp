// Every instruction form of Forms.def runs natively and lifted from the same states; every
// register, flag (undefined ones masked), RIP, outcome and arena byte must agree.
//
// Environment: HOIST_SEMANTICS_STATES (states per form, default 10000), HOIST_SEMANTICS_SEED
// (varies the states, default 0), HOIST_SEMANTICS_IR=1 (print the lifted IR of failing forms).
#include "Assembler.h"
#include "CodeLayout.h"
#include "Comparison.h"
#include "Decode/Decoder.h"
#include "JitRunner.h"
#include "NativeRunner.h"
#include "StateGenerator.h"
#include "XsaveArea.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace hoist;
using namespace hoist::test;

namespace {

const char *const Forms[] = {
#define FORM(text) text,
#include "Forms.def"
};

uint64_t environmentNumber(const char *name, uint64_t fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::strtoull(value, nullptr, 0) : fallback;
}

/// FNV-1a of the form's text: unlike std::hash, the same on every platform and run, so a
/// reported state number reproduces.
uint64_t formSeed(const std::string &form) {
  uint64_t hash = 0xcbf29ce484222325;
  for (unsigned char c : form)
    hash = (hash ^ c) * 0x100000001b3;
  return hash ^ environmentNumber("HOIST_SEMANTICS_SEED", 0);
}

constexpr unsigned ReportedStatesPerForm = 3;

struct Totals {
  unsigned forms = 0;
  unsigned formsNotRun = 0;   ///< could not be assembled or lifted, or stopped by an error
  uint64_t executions = 0;
  uint64_t mismatches = 0;
  uint64_t handedToRuntime = 0;   ///< of the executions, lifted runs that left on purpose
} totals;

/// Counts a form that stopped early (a failed ASSERT returns from the test body).
struct FormCompletion {
  bool completed = false;
  ~FormCompletion() {
    if (!completed)
      ++totals.formsNotRun;
  }
};

class Differential : public testing::TestWithParam<const char *> {};

TEST_P(Differential, MatchesTheCpu) {
  const std::string form = GetParam();
  ++totals.forms;
  FormCompletion completion;
  llvm::Expected<std::vector<uint8_t>> bytes = assemble(form);
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());

  NativeRunner &native = NativeRunner::instance();
  native.load(*bytes);
  Decoder decoder;
  Instr instr;
  ASSERT_EQ(decoder.decode(bytes->data(), bytes->size(), layout::InstructionAddress, instr),
            DecodeStatus::Ok);
  llvm::Expected<std::unique_ptr<JitRunner>> lifted =
      JitRunner::create(*bytes, layout::InstructionAddress);
  ASSERT_TRUE(bool(lifted)) << form << ": cannot lift: " << llvm::toString(lifted.takeError());

  StateGenerator generator(instr, formSeed(form));
  std::vector<uint8_t> initialArena, nativeArena(layout::ArenaSize);
  const unsigned states = environmentNumber("HOIST_SEMANTICS_STATES", 10000);
  uint64_t mismatches = 0;
  for (unsigned index = 0; index < states; ++index) {
    CpuState in{};
    ASSERT_TRUE(generator.generate(index, in, initialArena))
        << form << ": no state keeps its memory operands in the arena";

    std::memcpy(native.arena(), initialArena.data(), layout::ArenaSize);
    RunResult outNative = native.run(in);
    std::memcpy(nativeArena.data(), native.arena(), layout::ArenaSize);

    std::memcpy(native.arena(), initialArena.data(), layout::ArenaSize);
    RunResult outLifted;
    std::string error;
    ASSERT_TRUE((*lifted)->run(in, outLifted, error))
        << form << ": state #" << index << ": " << error
        << " (in: " << describeInput(instr, in, initialArena.data()) << ")";

    ++totals.executions;
    std::string differences;
    if (outLifted.outcome == Outcome::Unsupported) {
      // Only where Hoist hands the instruction to the runtime on purpose (xsave of a state
      // component it does not model), and then with nothing changed.
      ASSERT_TRUE(leavesToRuntime(instr, in))
          << form << ": state #" << index << ": lifted as __hoist_unsupported\n"
          << (*lifted)->diagnostics()
          << " (in: " << describeInput(instr, in, initialArena.data()) << ")";
      ++totals.handedToRuntime;
      RunResult unchanged;
      unchanged.outcome = Outcome::Unsupported;
      unchanged.state = in;
      differences =
          compareRuns(instr, in, unchanged, outLifted, initialArena.data(), native.arena());
    } else {
      differences =
          compareRuns(instr, in, outNative, outLifted, nativeArena.data(), native.arena());
    }
    if (differences.empty())
      continue;
    ++totals.mismatches;
    if (mismatches++ < ReportedStatesPerForm)
      ADD_FAILURE() << form << ": state #" << index << ": " << differences
                    << " (in: " << describeInput(instr, in, initialArena.data()) << ")";
  }
  completion.completed = true;
  EXPECT_EQ(mismatches, 0u) << form << ": " << mismatches << " of " << states
                            << " states mismatch";
  if (mismatches && environmentNumber("HOIST_SEMANTICS_IR", 0))
    std::printf("lifted IR of '%s':\n%s\n", form.c_str(), (*lifted)->ir().c_str());
}

std::string testName(const testing::TestParamInfo<const char *> &info) {
  std::string name = std::to_string(info.index) + "_";
  for (const char *c = info.param; *c; ++c)
    name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Forms, Differential, testing::ValuesIn(Forms), testName);

class ReportTotals : public testing::Environment {
public:
  void TearDown() override {
    if (totals.forms == 0)
      return;   // e.g. only the NativeRunner tests ran
    std::printf("semantics: %u forms, %llu executions, %llu mismatches\n", totals.forms,
                static_cast<unsigned long long>(totals.executions),
                static_cast<unsigned long long>(totals.mismatches));
    if (totals.handedToRuntime)
      std::printf("semantics: %llu of the executions handed to the runtime on purpose (xsave "
                  "of components Hoist does not model), checked to change nothing\n",
                  static_cast<unsigned long long>(totals.handedToRuntime));
    if (totals.formsNotRun)
      std::printf("semantics: %u forms did not run to the end (see the failures above)\n",
                  totals.formsNotRun);
  }
};
const auto *const reportTotals = testing::AddGlobalTestEnvironment(new ReportTotals);

} // namespace
