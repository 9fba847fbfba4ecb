// Every instruction form of Forms.def runs natively and lifted from the same states; every
// register, flag (undefined ones masked), RIP, outcome and arena byte must agree. The forms
// that write RSP run again, many more times, as the StackPointer tests (their own ctest entry).
//
// Environment: HOIST_SEMANTICS_STATES (states per form; default HOIST_SEMANTICS_DEFAULT_STATES,
// which ctest sets, or 10000), HOIST_SEMANTICS_SEED (varies the states; default 0, or a new
// one each run, printed, where ctest sets HOIST_SEMANTICS_DEFAULT_SEED=fresh),
// HOIST_SEMANTICS_IR=1 (print the lifted IR of failing forms);
// for the StackPointer tests HOIST_STACK_POINTER_STATES (default 30000),
// HOIST_STACK_POINTER_ROUNDS (default 3) and HOIST_STACK_POINTER_SEED (default: new each run).
#include "Assembler.h"
#include "CodeLayout.h"
#include "Comparison.h"
#include "Decode/Decoder.h"
#include "HostModel.h"
#include "JitRunner.h"
#include "NativeRunner.h"
#include "StateGenerator.h"
#include "XsaveArea.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

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

/// The seed of this run's states: HOIST_SEMANTICS_SEED, else 0, or a new one each run where
/// HOIST_SEMANTICS_DEFAULT_SEED is `fresh` (ctest's entries: every CI run draws other states).
uint64_t runSeed() {
  static const uint64_t seed = []() -> uint64_t {
    if (const char *given = std::getenv("HOIST_SEMANTICS_SEED"); given && *given)
      return std::strtoull(given, nullptr, 0);
    const char *fallback = std::getenv("HOIST_SEMANTICS_DEFAULT_SEED");
    if (!fallback || std::strcmp(fallback, "fresh") != 0)
      return uint64_t(0);
    std::random_device entropy;
    return uint64_t(entropy()) << 32 | entropy();
  }();
  return seed;
}

/// States per form: HOIST_SEMANTICS_STATES, else HOIST_SEMANTICS_DEFAULT_STATES, else 10,000.
uint64_t statesPerForm() {
  return environmentNumber("HOIST_SEMANTICS_STATES",
                           environmentNumber("HOIST_SEMANTICS_DEFAULT_STATES", 10000));
}

/// FNV-1a of the form's text: unlike std::hash, the same on every platform and run, so a
/// reported state number reproduces with the run's seed.
uint64_t formSeed(const std::string &form) {
  uint64_t hash = 0xcbf29ce484222325;
  for (unsigned char c : form)
    hash = (hash ^ c) * 0x100000001b3;
  return hash ^ runSeed();
}

constexpr unsigned ReportedStatesPerForm = 3;

struct Totals {
  unsigned forms = 0;
  unsigned formsNotRun = 0;   ///< could not be assembled or lifted, or stopped by an error
  uint64_t executions = 0;
  uint64_t mismatches = 0;
  uint64_t handedToRuntime = 0;   ///< of the executions, lifted runs that left on purpose
  uint64_t harnessErrors = 0;     ///< native runs that faulted in the harness: not executions
  uint64_t skipped = 0;   ///< states the host's model decides (HostModel.h): not executions
  unsigned notChecked = 0;   ///< forms the host cannot run (AVX-512, GFNI): skipped, not passed
};

/// The table's totals (Forms.def), which the README reports, and those of the stack-pointer
/// stress test (forms that write RSP, most of them also in the table), reported apart.
Totals tableTotals, stackPointerTotals;

/// Counts a form that stopped early (a failed ASSERT returns from the test body).
struct FormCompletion {
  Totals &totals;
  bool completed = false;
  ~FormCompletion() {
    if (!completed)
      ++totals.formsNotRun;
  }
};

/// A form may leave this many states to the host's model whatever its number of states: the
/// MXCSR forms skip up to 40 in 10,000 (0.4%), so a run of 50 states (the sanitizer build's)
/// sees 1 or 2 of them by chance; 6 or more at that rate is about one run in ten million.
constexpr uint64_t SkippedByChance = 5;

/// Says how many of a form's states the host's model decided, and by which rule; more than 1%
/// (and more than SkippedByChance) fails the form unless HostModel says why that is expected
/// for it.
void reportSkipped(const std::string &form, const Instr &instr, unsigned states,
                   uint64_t skipped, const char *rule) {
  if (skipped == 0)
    return;
  const char *expected = whyModelChoosesOften(instr);
  std::printf("%s: %llu of %u states skipped (%s)%s%s\n", form.c_str(),
              static_cast<unsigned long long>(skipped), states, rule,
              expected ? ", expected: " : "", expected ? expected : "");
  EXPECT_TRUE(expected || skipped * 100 <= states || skipped <= SkippedByChance)
      << form << ": the host's model decides " << skipped << " of " << states
      << " states (" << rule << "), more than 1%, and the form is not listed in HostModel.cpp";
}

/// Runs `form` natively and lifted from `states` generated states and compares each pair;
/// every mismatch and harness error is a test failure.
void checkForm(const std::string &form, unsigned states, uint64_t seed, Totals &totals) {
  ++totals.forms;
  FormCompletion completion{totals};
  llvm::Expected<std::vector<uint8_t>> bytes = assemble(form);
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());

  NativeRunner &native = NativeRunner::instance();
  native.load(*bytes);
  Decoder decoder;
  Instr instr;
  ASSERT_EQ(decoder.decode(bytes->data(), bytes->size(), layout::InstructionAddress, instr),
            DecodeStatus::Ok);
  if (const char *lacking = hostLacks(instr)) {
    --totals.forms;   // counted apart, as not checked
    ++totals.notChecked;
    completion.completed = true;
    std::printf("%s: NOT CHECKED: the host has no %s\n", form.c_str(), lacking);
    GTEST_SKIP() << form << ": not checked, the host has no " << lacking;
  }
  llvm::Expected<std::unique_ptr<JitRunner>> lifted =
      JitRunner::create(*bytes, layout::InstructionAddress);
  ASSERT_TRUE(bool(lifted)) << form << ": cannot lift: " << llvm::toString(lifted.takeError());

  StateGenerator generator(instr, seed);
  std::vector<uint8_t> initialArena, nativeArena(layout::ArenaSize);
  uint64_t mismatches = 0, skipped = 0;
  const char *skipRule = nullptr;
  for (unsigned index = 0; index < states; ++index) {
    CpuState in{};
    ASSERT_TRUE(generator.generate(index, in, initialArena))
        << form << ": no state keeps its memory operands in the arena";

    std::memcpy(native.arena(), initialArena.data(), layout::ArenaSize);
    RunResult outNative = native.run(in);
    std::memcpy(nativeArena.data(), native.arena(), layout::ArenaSize);
    actAsHostWithoutIa32Emulation(instr, in, nativeArena.data(), outNative);
    if (outNative.outcome == Outcome::HarnessError) {
      // Neither a pass nor a lifter mismatch: the test fails, and the totals say why.
      ++totals.harnessErrors;
      ADD_FAILURE() << form << ": state #" << index << ": the native run ended with a "
                    << describeOutcome(outNative) << ", not in the tested instruction"
                    << " (in: " << describeInput(instr, in, initialArena.data()) << ")";
      continue;
    }

    std::memcpy(native.arena(), initialArena.data(), layout::ArenaSize);
    RunResult outLifted;
    std::string error;
    ASSERT_TRUE((*lifted)->run(in, outLifted, error))
        << form << ": state #" << index << ": " << error
        << " (in: " << describeInput(instr, in, initialArena.data()) << ")";

    if (const char *rule =
            modelChoiceRule(instr, in, outNative, outLifted, nativeArena.data())) {
      // Compared nothing: neither an execution nor a pass.
      ++skipped, ++totals.skipped;
      skipRule = rule;
      continue;
    }
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
  reportSkipped(form, instr, states, skipped, skipRule);
  if (mismatches && environmentNumber("HOIST_SEMANTICS_IR", 0))
    std::printf("lifted IR of '%s':\n%s\n", form.c_str(), (*lifted)->ir().c_str());
}

class Differential : public testing::TestWithParam<const char *> {};

TEST_P(Differential, MatchesTheCpu) {
  SCOPED_TRACE(llvm::formatv("HOIST_SEMANTICS_SEED={0:x} HOIST_SEMANTICS_STATES={1} reproduce it",
                             runSeed(), statesPerForm())
                   .str());
  checkForm(GetParam(), statesPerForm(), formSeed(GetParam()), tableTotals);
}

std::string testName(const testing::TestParamInfo<const char *> &info) {
  std::string name = std::to_string(info.index) + "_";
  for (const char *c = info.param; *c; ++c)
    name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Forms, Differential, testing::ValuesIn(Forms), testName);

/// Forms that leave any value in RSP, non-canonical ones included (docs/TESTING.md, "The
/// native runner"): the native runner must come back from every one of them through its exit,
/// whatever the stack pointer holds. Many states, several rounds, a fresh seed each round.
const char *const StackPointerForms[] = {
    "pop rsp",          "mov rsp, rbp",        "mov rsp, rax",     "xchg rsp, rax",
    "xchg rbx, rsp",    "lea rsp, [rsp+8]",    "lea rsp, [rax+rcx*8+0x10]",
    "add rsp, 8",       "add rsp, rax",        "sub rsp, 0x28",    "sub rsp, rdx",
    "and rsp, -16",     "and rsp, rsi",        "leave",            "enter 0x20, 0",
    "enter 0x10, 1",
};
// `enter` with a nesting level of 2 or more is unsupported (lib/Semantics/Stack.cpp).

class StackPointer : public testing::TestWithParam<const char *> {};

TEST_P(StackPointer, NativeRunnerSurvivesAndLiftMatches) {
  const unsigned states = environmentNumber("HOIST_STACK_POINTER_STATES", 30000);
  const unsigned rounds = environmentNumber("HOIST_STACK_POINTER_ROUNDS", 3);
  std::random_device entropy;
  for (unsigned round = 0; round < rounds; ++round) {
    // A new seed every round and run, unless HOIST_STACK_POINTER_SEED fixes the first.
    const char *fixed = std::getenv("HOIST_STACK_POINTER_SEED");
    uint64_t seed = fixed && *fixed ? std::strtoull(fixed, nullptr, 0) + round
                                    : uint64_t(entropy()) << 32 | entropy();
    SCOPED_TRACE(llvm::formatv("round {0}: HOIST_STACK_POINTER_SEED={1:x} reproduces it", round,
                               seed)
                     .str());
    checkForm(GetParam(), states, seed, stackPointerTotals);
    if (HasFailure())
      return;
  }
}

INSTANTIATE_TEST_SUITE_P(Forms, StackPointer, testing::ValuesIn(StackPointerForms), testName);

void printTotals(const char *label, const Totals &totals) {
  if (totals.forms == 0)
    return;   // e.g. only the NativeRunner tests ran
  std::printf("%s: %u forms, %llu executions, %llu mismatches\n", label, totals.forms,
              static_cast<unsigned long long>(totals.executions),
              static_cast<unsigned long long>(totals.mismatches));
  if (&totals == &tableTotals)
    std::printf("%s: states from HOIST_SEMANTICS_SEED=0x%llx\n", label,
                static_cast<unsigned long long>(runSeed()));
  if (totals.handedToRuntime)
    std::printf("%s: %llu of the executions handed to the runtime on purpose (xsave "
                "of components Hoist does not model), checked to change nothing\n",
                label, static_cast<unsigned long long>(totals.handedToRuntime));
  if (totals.skipped)
    std::printf("%s: %llu states skipped where the host's model decides (not counted above)\n",
                label, static_cast<unsigned long long>(totals.skipped));
  if (totals.harnessErrors)
    std::printf("%s: %llu native runs ended in a harness error (not counted above)\n", label,
                static_cast<unsigned long long>(totals.harnessErrors));
  if (totals.notChecked)
    std::printf("%s: %u forms NOT CHECKED: the host lacks their extension (not counted above)\n",
                label, totals.notChecked);
  if (totals.formsNotRun)
    std::printf("%s: %u forms did not run to the end (see the failures above)\n", label,
                totals.formsNotRun);
}

class ReportTotals : public testing::Environment {
public:
  void TearDown() override {
    printTotals("semantics", tableTotals);
    printTotals("stack-pointer forms", stackPointerTotals);
  }
};
const auto *const reportTotals = testing::AddGlobalTestEnvironment(new ReportTotals);

} // namespace
