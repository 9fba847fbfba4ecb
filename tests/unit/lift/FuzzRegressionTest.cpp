// Instructions the fuzzers (tests/fuzz/, docs/ROBUSTNESS.md) found lifting to IR the LLVM verifier
// rejects. Each must now lift, alone, into a function that verifies.
#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace hoist;

namespace {

struct FoundInput {
  const char *name;
  std::vector<uint8_t> code;
};

class FuzzRegressionTest : public testing::TestWithParam<FoundInput> {};

TEST_P(FuzzRegressionTest, LiftsAndVerifies) {
  constexpr uint64_t Base = 0x1000;
  std::unique_ptr<Image> image = Image::fromRawBytes(GetParam().code, Base);
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  Lifter lifter(*image, context, diagnostics);
  llvm::Expected<llvm::Function *> function = lifter.liftFunction(Base);
  ASSERT_TRUE(bool(function)) << llvm::toString(function.takeError());
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  EXPECT_FALSE(llvm::verifyModule(*lifter.takeModule(), &stream)) << problems;
}

INSTANTIATE_TEST_SUITE_P(
    Found, FuzzRegressionTest,
    testing::Values(
        // movsxd ax, word ptr [rip]: Zydis gives the memory operand 32 bits, wider than the
        // destination; it was sign-extended from i32 to i16.
        FoundInput{"MovsxdWith16BitDestinationFromMemory", {0x66, 0x63, 0x05, 0, 0, 0, 0, 0xc3}},
        FoundInput{"MovsxdWith16BitDestinationFromRegister", {0x66, 0x63, 0xc0, 0xc3}}),
    [](const testing::TestParamInfo<FoundInput> &info) { return std::string(info.param.name); });

} // namespace
