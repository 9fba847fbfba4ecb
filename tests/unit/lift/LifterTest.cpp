#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
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

  explicit Lifted(std::vector<uint8_t> code, LiftOptions options = {}) {
    image = Image::fromRawBytes(code, Base);
    lifter = std::make_unique<Lifter>(*image, context, diagnostics, options);
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
  unsigned countReturns() const {
    unsigned n = 0;
    for (const llvm::BasicBlock &bb : *function)
      n += llvm::isa<llvm::ReturnInst>(bb.getTerminator());
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
  // `ret` returns from the LLVM function; no intrinsic is called for it.
  EXPECT_EQ(lifted.countReturns(), 1u);
  EXPECT_EQ(lifted.countCalls("__hoist_ret"), 0u);
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
  EXPECT_EQ(lifted.countReturns(), 1u);
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

TEST(Lifter, CallOutsideTheImageGoesThroughIntrinsicAndChecksTheReturn) {
  // call 0x2000; ret
  Lifted lifted({0xe8, 0xfb, 0x0f, 0x00, 0x00, 0xc3});
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.countCalls("__hoist_call"), 1u);
  // A callee that returned anywhere but 0x1005 is handed on through __hoist_jmp.
  EXPECT_EQ(lifted.countCalls("__hoist_jmp"), 1u);
  EXPECT_TRUE(lifted.block("returned_elsewhere_1000"));
  EXPECT_EQ(lifted.countReturns(), 2u);
}

TEST(Lifter, DirectCallIntoTheImageIsACallOfTheLiftedFunction) {
  // 0x1000: call 0x1006; ret; 0x1006: mov eax, 7; ret
  Lifted lifted({0xe8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x07, 0x00, 0x00, 0x00, 0xc3});
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.countCalls("fn_1006"), 1u);
  EXPECT_EQ(lifted.countCalls("__hoist_call"), 0u);
  llvm::Function *callee = lifted.lifter->module().getFunction("fn_1006");
  ASSERT_TRUE(callee);
  EXPECT_TRUE(callee->isDeclaration());   // liftFunction lifts one function
  EXPECT_EQ(lifted.lifter->liftCallees(), 1u);
  EXPECT_FALSE(callee->isDeclaration());
  EXPECT_EQ(lifted.lifter->stats().functions, 2u);
  EXPECT_FALSE(llvm::verifyModule(lifted.lifter->module(), &llvm::errs()));
}

TEST(Lifter, CalleeNotLiftedBecomesARuntimeCallWhenTheModuleIsTaken) {
  // 0x1000: call 0x1006; ret; 0x1006: ret
  Lifted lifted({0xe8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xc3});
  ASSERT_TRUE(lifted.function);
  std::unique_ptr<llvm::Module> module = lifted.lifter->takeModule();
  llvm::Function *callee = module->getFunction("fn_1006");
  ASSERT_TRUE(callee);
  ASSERT_FALSE(callee->isDeclaration());
  EXPECT_TRUE(callee->hasFnAttribute("hoist-not-lifted"));
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&*std::prev(callee->getEntryBlock().end(), 2));
  ASSERT_TRUE(call);
  EXPECT_EQ(call->getCalledFunction()->getName(), "__hoist_call");
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(call->getArgOperand(2))->getZExtValue(), 0x1006u);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
}

TEST(Lifter, CallThroughAReadOnlyConstantPointerIsDirect) {
  // 0x1000: call [rip+2] (-> slot 0x1008); ret; nop; 0x1008: dq 0x1010; 0x1010: ret
  Lifted lifted({0xff, 0x15, 0x02, 0x00, 0x00, 0x00, 0xc3, 0x90,
                 0x10, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc3});
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.countCalls("fn_1010"), 1u);
  EXPECT_EQ(lifted.countCalls("__hoist_call"), 0u);
}

TEST(Lifter, CallThroughAnImmediateInARegisterIsDirect) {
  // 0x1000: mov eax, 0x100c; call rax; ret; nop; 0x100c: ret
  Lifted lifted({0xb8, 0x0c, 0x10, 0x00, 0x00, 0xff, 0xd0, 0xc3, 0x90, 0x90, 0x90, 0x90, 0xc3});
  ASSERT_TRUE(lifted.function);
  EXPECT_EQ(lifted.countCalls("fn_100c"), 1u);
  EXPECT_EQ(lifted.countCalls("__hoist_call"), 0u);
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

/// Each instruction's `!hoist.pc`, in order ("-" for none).
std::vector<std::string> pcTags(const llvm::Function &function) {
  std::vector<std::string> tags;
  for (const llvm::BasicBlock &bb : function)
    for (const llvm::Instruction &instruction : bb) {
      std::optional<uint64_t> pc = pcMetadataOf(instruction);
      tags.push_back(pc ? std::to_string(*pc) : "-");
    }
  return tags;
}

// add rax, rbx; call 0x100c; ret; padding, then the callee at 0x100c: ret.
const std::vector<uint8_t> AddCallRet = {0x48, 0x01, 0xd8, 0xe8, 0x04, 0x00, 0x00, 0x00,
                                         0xc3, 0x90, 0x90, 0x90, 0xc3};

TEST(Lifter, InstructionAddressesAreASideTableUnlessMetadataIsAskedFor) {
  Lifted plain(AddCallRet);
  ASSERT_TRUE(plain.function);
  std::vector<std::string> untagged = pcTags(*plain.function);
  EXPECT_TRUE(llvm::all_of(untagged, [](const std::string &tag) { return tag == "-"; }));
  llvm::ArrayRef<InstructionAddress> map = plain.lifter->instructionAddresses(*plain.function);
  ASSERT_FALSE(map.empty());
  std::set<uint64_t> addresses;
  for (const InstructionAddress &entry : map) {
    EXPECT_EQ(entry.instruction->getFunction(), plain.function);
    addresses.insert(entry.address);
  }
  EXPECT_EQ(addresses, (std::set<uint64_t>{Base, Base + 3, Base + 8}));

  // The side table made metadata is the metadata LiftOptions::pcMetadata gives.
  attachPcMetadata(map);
  Lifted tagged(AddCallRet, LiftOptions{.pcMetadata = true});
  ASSERT_TRUE(tagged.function);
  EXPECT_EQ(pcTags(*plain.function), pcTags(*tagged.function));
  EXPECT_NE(pcTags(*tagged.function), untagged);
}

TEST(Lifter, AFunctionNotLiftedHasNoInstructionAddresses) {
  Lifted lifted({0xc3});
  ASSERT_TRUE(lifted.function);
  llvm::Function *other = llvm::Function::Create(lifted.function->getFunctionType(),
                                                 llvm::GlobalValue::ExternalLinkage, "other",
                                                 lifted.lifter->module());
  EXPECT_TRUE(lifted.lifter->instructionAddresses(*other).empty());
}

} // namespace
