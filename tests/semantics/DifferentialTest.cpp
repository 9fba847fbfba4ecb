// Every instruction form of Forms.def runs natively and lifted from the same states; every
// register, flag (undefined ones masked), RIP and arena byte must agree.
#include "Assembler.h"
#include "Comparison.h"
#include "Decode/Decoder.h"
#include "JitRunner.h"
#include "NativeRunner.h"
#include "StateGenerator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

using namespace hoist;
using namespace hoist::test;

namespace {

const char *const Forms[] = {
#define FORM(text) text,
#include "Forms.def"
};

unsigned statesPerForm() {
  if (const char *env = std::getenv("HOIST_SEMANTICS_STATES"))
    return static_cast<unsigned>(std::strtoul(env, nullptr, 10));
  return 10000;
}

struct Totals {
  unsigned forms = 0;
  uint64_t executions = 0;
  uint64_t mismatches = 0;
} totals;

NativeRunner &runner() {
  static NativeRunner instance;
  return instance;
}

class Differential : public testing::TestWithParam<const char *> {};

TEST_P(Differential, MatchesTheCpu) {
  const std::string form = GetParam();
  llvm::Expected<std::vector<uint8_t>> bytes = assemble(form);
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());

  NativeRunner &native = runner();
  native.load(*bytes);
  Decoder decoder;
  Instr instr;
  ASSERT_EQ(decoder.decode(bytes->data(), bytes->size(), native.codeAddress(), instr),
            DecodeStatus::Ok);
  llvm::Expected<std::unique_ptr<JitRunner>> lifted = JitRunner::create(*bytes, native.codeAddress());
  ASSERT_TRUE(bool(lifted)) << form << ": " << llvm::toString(lifted.takeError());

  StateGenerator generator(instr, native, std::hash<std::string>()(form));
  std::vector<uint8_t> initialArena, nativeArena(NativeRunner::ArenaSize);
  std::vector<uint8_t> liftedArena(NativeRunner::ArenaSize);
  unsigned states = statesPerForm(), reported = 0;
  uint64_t mismatches = 0;
  for (unsigned index = 0; index < states; ++index) {
    CpuState in{}, outNative{}, outLifted{};
    ASSERT_TRUE(generator.generate(index, in, initialArena)) << form << ": no valid state";

    std::memcpy(native.arena(), initialArena.data(), initialArena.size());
    ASSERT_TRUE(native.run(in, outNative))
        << form << ": faulted natively from " << describeState(in);
    std::memcpy(nativeArena.data(), native.arena(), nativeArena.size());

    std::memcpy(native.arena(), initialArena.data(), initialArena.size());
    std::string why;
    ASSERT_TRUE((*lifted)->run(in, outLifted, why)) << form << ": " << why;
    std::memcpy(liftedArena.data(), native.arena(), liftedArena.size());

    std::string differences = compareRuns(instr, in, outNative, outLifted, nativeArena,
                                          liftedArena, native.dataAddress());
    if (!differences.empty()) {
      ++mismatches;
      if (reported++ < 3)
        ADD_FAILURE() << form << ": state #" << index << ": " << differences
                      << "(in: " << describeState(in) << ")";
    }
  }
  ++totals.forms;
  totals.executions += states;
  totals.mismatches += mismatches;
  EXPECT_EQ(mismatches, 0u) << form;
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
    std::printf("semantics: %u forms, %llu executions, %llu mismatches\n", totals.forms,
                static_cast<unsigned long long>(totals.executions),
                static_cast<unsigned long long>(totals.mismatches));
  }
};
const auto *const reportTotals = testing::AddGlobalTestEnvironment(new ReportTotals);

} // namespace
