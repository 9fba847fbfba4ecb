// Instructions the fuzzers (tests/fuzz/, docs/ROBUSTNESS.md) found lifting to IR the LLVM verifier
// rejects. Each must now lift, alone, into a function that verifies.
#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
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
        FoundInput{"MovsxdWith16BitDestinationFromRegister", {0x66, 0x63, 0xc0, 0xc3}},
        // add byte ptr [eip], bh: an EIP-relative operand (address-size prefix on a
        // RIP-relative one). EIP was read as a general-purpose register it is not, from
        // whatever the stack held: flags of absurd widths (i185872).
        FoundInput{"EipRelativeOperand", {0x67, 0x00, 0x3d, 0x00, 0x00, 0x00, 0x00}},
        FoundInput{"EipRelativeLoad", {0x67, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00, 0xc3}}),
    [](const testing::TestParamInfo<FoundInput> &info) { return std::string(info.param.name); });

TEST(FuzzRegression, EipRelativeAddressIsTheNextInstructionPlusDisplacement) {
  // mov eax, dword ptr [eip+0x10]; ret   at 0x1000: reads 0x1007 + 0x10.
  std::unique_ptr<Image> image =
      Image::fromRawBytes(std::vector<uint8_t>{0x67, 0x8b, 0x05, 0x10, 0, 0, 0, 0xc3}, 0x1000);
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  Lifter lifter(*image, context, diagnostics);
  llvm::Expected<llvm::Function *> function = lifter.liftFunction(0x1000);
  ASSERT_TRUE(bool(function)) << llvm::toString(function.takeError());
  bool found = false;
  for (const llvm::BasicBlock &block : **function)
    for (const llvm::Instruction &instruction : block)
      if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction))
        if (auto *offset = llvm::dyn_cast<llvm::ConstantInt>(gep->getOperand(1)))
          found |= gep->getPointerOperand() == (*function)->getArg(1) && offset->equalsInt(0x1017);
  EXPECT_TRUE(found) << "no load from %mem + 0x1017";
}

} // namespace
