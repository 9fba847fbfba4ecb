#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>
#include <gtest/gtest.h>

#include <vector>

using namespace hoist;

namespace {

constexpr uint64_t Base = 0x1000;

struct Lifted {
  std::unique_ptr<Image> image;
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  std::unique_ptr<Lifter> lifter;
  llvm::Function *function = nullptr;

  explicit Lifted(std::vector<uint8_t> code) {
    image = Image::fromRawBytes(code, Base);
    lifter = std::make_unique<Lifter>(*image, context, diagnostics);
    llvm::Expected<llvm::Function *> result = lifter->liftFunction(Base);
    if (!result) {
      ADD_FAILURE() << llvm::toString(result.takeError());
      return;
    }
    function = *result;
    EXPECT_FALSE(llvm::verifyModule(lifter->module(), &llvm::errs()));
  }

  unsigned countCalls(llvm::StringRef callee) const {
    unsigned n = 0;
    for (const llvm::BasicBlock &bb : *function)
      for (const llvm::Instruction &inst : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          n += call->getCalledFunction() && call->getCalledFunction()->getName() == callee;
    return n;
  }
  const llvm::BasicBlock *block(llvm::StringRef name) const {
    for (const llvm::BasicBlock &bb : *function)
      if (bb.getName() == name)
        return &bb;
    return nullptr;
  }
};

TEST(Lifter, FunctionIsNamedAfterItsAddressAndTakesStateAndMemory) {
  Lifted lifted({0x48, 0x01, 0xd8, 0xc3});   // add rax, rbx; ret
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.function->getName(), "fn_1000");
  EXPECT_EQ(lifted.function->arg_size(), 2u);
  EXPECT_TRUE(lifted.function->hasParamAttribute(0, llvm::Attribute::NoAlias));
  EXPECT_EQ(lifted.countCalls("__hoist_ret"), 1u);
  EXPECT_EQ(lifted.lifter->stats().instructionsLifted, 2u);
  EXPECT_EQ(lifted.lifter->stats().blocks, 1u);
}

TEST(Lifter, LoopCounterBecomesOnePhiAndUntouchedRegistersNone) {
  // xor eax, eax; L: add eax, 1; cmp eax, 10; jne L; ret
  Lifted lifted({0x31, 0xc0, 0x83, 0xc0, 0x01, 0x83, 0xf8, 0x0a, 0x75, 0xf8, 0xc3});
  ASSERT_TRUE(lifted.function);
  const llvm::BasicBlock *header = lifted.block("bb_1002");
  ASSERT_TRUE(header);
  unsigned phis = 0;
  for (const llvm::PHINode &phi : header->phis()) {
    ++phis;
    EXPECT_TRUE(phi.getName().starts_with("rax")) << phi.getName().str();
  }
  // Only rax changes around the loop: every other register's phi was trivial and removed.
  EXPECT_EQ(phis, 1u);
  EXPECT_EQ(lifted.lifter->stats().blocks, 3u);
}

TEST(Lifter, JumpIntoTheMiddleOfABlockSplitsIt) {
  // 0x1000: mov eax, 1; 0x1005: add eax, eax; 0x1007: jmp 0x1005 (back into the first run)
  Lifted lifted({0xb8, 0x01, 0x00, 0x00, 0x00, 0x01, 0xc0, 0xeb, 0xfc});
  ASSERT_TRUE(lifted.function);
  EXPECT_TRUE(lifted.block("bb_1000"));
  EXPECT_TRUE(lifted.block("bb_1005"));
  EXPECT_EQ(lifted.lifter->stats().instructionsLifted, 3u);   // no instruction lifted twice
}

TEST(Lifter, UnsupportedInstructionBecomesIntrinsicAndLiftingGoesOn) {
  Lifted lifted({0xec, 0x48, 0x01, 0xd8, 0xc3});   // in al, dx (port I/O); add rax, rbx; ret
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.countCalls("__hoist_unsupported"), 1u);
  EXPECT_EQ(lifted.countCalls("__hoist_ret"), 1u);
  EXPECT_EQ(lifted.lifter->stats().unsupported.at("in"), 1u);
  ASSERT_EQ(lifted.diagnostics.all().size(), 1u);
  const Diagnostic &d = lifted.diagnostics.all().front();
  EXPECT_EQ(d.code, "unsupported-instruction");
  EXPECT_EQ(*d.address, Base);
  EXPECT_NE(d.message.find("0x1000: in al, dx"), std::string::npos) << d.message;
}

TEST(Lifter, InvalidBytesTrapWithADiagnostic) {
  Lifted lifted({0x90, 0x06});   // nop; (push es, invalid in 64-bit mode)
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.countCalls("__hoist_trap"), 1u);
  EXPECT_EQ(lifted.diagnostics.count(Severity::Error), 1u);
  EXPECT_EQ(lifted.diagnostics.all().front().code, "invalid-instruction");
}

TEST(Lifter, BranchOutOfTheImageLeavesThroughJmpIntrinsic) {
  Lifted lifted({0x74, 0x10, 0xc3});   // jz +0x10 (outside); ret
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.countCalls("__hoist_jmp"), 1u);
  EXPECT_TRUE(lifted.block("exit_1012"));
}

TEST(Lifter, CallGoesThroughIntrinsicAndContinues) {
  // call 0x2000; ret
  Lifted lifted({0xe8, 0xfb, 0x0f, 0x00, 0x00, 0xc3});
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.countCalls("__hoist_call"), 1u);
  EXPECT_EQ(lifted.countCalls("__hoist_ret"), 1u);
}

TEST(Lifter, AddressOutsideTheImageIsAnError) {
  auto image = Image::fromRawBytes(std::vector<uint8_t>{0xc3}, Base);
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  Lifter lifter(*image, context, diagnostics);
  llvm::Expected<llvm::Function *> result = lifter.liftFunction(0x5000);
  ASSERT_FALSE(result);
  EXPECT_NE(llvm::toString(result.takeError()).find("0x5000"), std::string::npos);
}

TEST(Lifter, LiftingTheSameFunctionTwiceReturnsIt) {
  Lifted lifted({0xc3});
  ASSERT_TRUE(lifted.function);
  llvm::Expected<llvm::Function *> again = lifted.lifter->liftFunction(Base);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(*again, lifted.function);
}

} // namespace
