// The value analysis of indirect jmps the jump-table matcher does not resolve
// (IndirectJumpAnalysis.h): each shape it resolves, and each it refuses with a reason. The code
// is raw bytes at 0x1000 (a read-only, executable image), assembled once with GNU as from the
// source in each comment; tests/lit/cfg/indirect-jumps.test has writable and import slots.
#include "DiscoveredForTest.h"
#include "hoist/Lifter.h"

#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>

using namespace hoist;

namespace {

using test::Base;

/// The only computed jmp's targets, or nothing.
std::vector<uint64_t> computedTargets(const test::Discovered &d) {
  if (d.function.computedJumps.size() != 1)
    return {};
  return d.function.computedJumps.front().targets;
}

/// The reason the only indirect jmp stays unresolved, or "" when it is not.
std::string unresolvedReason(const test::Discovered &d) {
  if (d.function.unresolvedJumps.size() != 1 || !d.function.computedJumps.empty())
    return "";
  return d.function.unresolvedJumps.front().reason;
}

// lea rax, [rip+L]; jmp rax; int3; L: mov eax, 1; ret
const std::vector<uint8_t> LeaOfOwnLabel = {0x48, 0x8d, 0x05, 0x03, 0x00, 0x00, 0x00, 0xff,
                                            0xe0, 0xcc, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3};

} // namespace

TEST(IndirectJump, ConstantTargetIsABlockOfTheFunction) {
  test::Discovered d(LeaOfOwnLabel);
  EXPECT_EQ(computedTargets(d), (std::vector<uint64_t>{0x100a}));
  ASSERT_EQ(d.function.computedJumps.size(), 1u);
  EXPECT_EQ(d.function.computedJumps[0].jump, 0x1007u);
  EXPECT_TRUE(d.function.unresolvedJumps.empty());
  // The target is explored as a block of the function, a successor of the jmp's block.
  ASSERT_TRUE(d.function.explored.blocks.count(0x100a));
  EXPECT_EQ(d.function.explored.blocks.at(0x1000).successors, (std::vector<uint64_t>{0x100a}));
  const JumpTable &computed = d.function.explored.jumpTables.at(0x1007);
  EXPECT_EQ(computed.shape, JumpTable::Shape::Computed);
}

TEST(IndirectJump, ConstantTargetLiftsAsASwitchOverTheTarget) {
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  std::unique_ptr<Image> image = Image::fromRawBytes(LeaOfOwnLabel, Base);
  Lifter lifter(*image, context, diagnostics);
  llvm::Expected<llvm::Function *> function = lifter.liftFunction(Base);
  ASSERT_TRUE(static_cast<bool>(function)) << llvm::toString(function.takeError());
  EXPECT_FALSE(llvm::verifyModule(lifter.module(), &llvm::errs()));
  const llvm::SwitchInst *switchInst = nullptr;
  for (const llvm::BasicBlock &bb : **function)
    if (auto *found = llvm::dyn_cast<llvm::SwitchInst>(bb.getTerminator()))
      switchInst = found;
  ASSERT_NE(switchInst, nullptr);
  ASSERT_EQ(switchInst->getNumCases(), 1u);
  EXPECT_EQ(switchInst->case_begin()->getCaseValue()->getZExtValue(), 0x100au);
}

// test edi, edi; je A; lea rax, [rip+L1]; jmp J; A: lea rax, [rip+L2]; J: jmp rax
// L1: mov eax, 1; ret; L2: mov eax, 2; ret
TEST(IndirectJump, ConstantsOnEveryPathAreAllTargets) {
  test::Discovered d({0x85, 0xff, 0x74, 0x09, 0x48, 0x8d, 0x05, 0x0b, 0x00, 0x00, 0x00, 0xeb,
                      0x07, 0x48, 0x8d, 0x05, 0x08, 0x00, 0x00, 0x00, 0xff, 0xe0, 0xb8, 0x01,
                      0x00, 0x00, 0x00, 0xc3, 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3});
  EXPECT_EQ(computedTargets(d), (std::vector<uint64_t>{0x1016, 0x101c}));
}

// push rbx; lea rbx, [rip+L]; call F; mov rcx, rbx; mov rax, rcx; pop rbx; jmp rax
// L: mov eax, 1; ret; F: xor eax, eax; ret
TEST(IndirectJump, FollowsCopiesAndCalleeSavedRegistersOverACall) {
  test::Discovered d({0x53, 0x48, 0x8d, 0x1d, 0x0e, 0x00, 0x00, 0x00, 0xe8, 0x0f, 0x00,
                      0x00, 0x00, 0x48, 0x89, 0xd9, 0x48, 0x89, 0xc8, 0x5b, 0xff, 0xe0,
                      0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0x31, 0xc0, 0xc3});
  EXPECT_EQ(computedTargets(d), (std::vector<uint64_t>{0x1016}));
}

// mov rax, [rip+slot]; jmp rax; L: mov eax, 1; ret; nop; slot: .quad L (read-only memory)
TEST(IndirectJump, PointerLoadedFromAReadOnlySlot) {
  test::Discovered d({0x48, 0x8b, 0x05, 0x09, 0x00, 0x00, 0x00, 0xff, 0xe0, 0xb8, 0x01, 0x00,
                      0x00, 0x00, 0xc3, 0x90, 0x09, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
  EXPECT_EQ(computedTargets(d), (std::vector<uint64_t>{0x1009}));
}

// jmp [rip+slot]; L: mov eax, 1; ret; nop4; slot: .quad L
TEST(IndirectJump, JmpThroughAReadOnlySlot) {
  test::Discovered d({0xff, 0x25, 0x0a, 0x00, 0x00, 0x00, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3,
                      0x0f, 0x1f, 0x40, 0x00, 0x06, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
  EXPECT_EQ(computedTargets(d), (std::vector<uint64_t>{0x1006}));
}

// lea rax, [rip+F]; jmp rax; int3 x7; F: mov eax, 7; ret     (F is another function)
const std::vector<uint8_t> LeaOfAnotherFunction = {0x48, 0x8d, 0x05, 0x09, 0x00, 0x00, 0x00, 0xff,
                                                   0xe0, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
                                                   0xb8, 0x07, 0x00, 0x00, 0x00, 0xc3};

TEST(IndirectJump, ConstantTargetAtAnotherFunctionIsATailCall) {
  test::Discovered d(LeaOfAnotherFunction, {Base, 0x1010});
  EXPECT_EQ(computedTargets(d), (std::vector<uint64_t>{0x1010}));
  EXPECT_EQ(d.function.tailCalls, (std::vector<uint64_t>{0x1010}));
  EXPECT_FALSE(d.function.explored.blocks.count(0x1010));
  EXPECT_TRUE(d.function.explored.tailCallTables.count(0x1007));
}

TEST(IndirectJump, TailCallLiftsAsACallOfTheFunction) {
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  std::unique_ptr<Image> image = Image::fromRawBytes(LeaOfAnotherFunction, Base);
  Lifter lifter(*image, context, diagnostics);
  lifter.discover({Base, 0x1010}, false);
  llvm::Expected<llvm::Function *> function = lifter.liftFunction(Base);
  ASSERT_TRUE(static_cast<bool>(function)) << llvm::toString(function.takeError());
  EXPECT_FALSE(llvm::verifyModule(lifter.module(), &llvm::errs()));
  bool callsF = false;
  for (const llvm::BasicBlock &bb : **function)
    for (const llvm::Instruction &instr : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instr))
        callsF |= call->getCalledFunction() &&
                  call->getCalledFunction()->getName() == liftedFunctionName(0x1010);
  EXPECT_TRUE(callsF);
}

// jmp rdi
TEST(IndirectJump, TheCallersValueIsRefused) {
  test::Discovered d({0xff, 0xe7});
  EXPECT_NE(unresolvedReason(d).find("caller"), std::string::npos) << unresolvedReason(d);
}

// call F; jmp rax; F: ret
TEST(IndirectJump, WhatACallReturnsIsRefused) {
  test::Discovered d({0xe8, 0x02, 0x00, 0x00, 0x00, 0xff, 0xe0, 0xc3});
  EXPECT_NE(unresolvedReason(d).find("call"), std::string::npos) << unresolvedReason(d);
}

// mov rax, [rdi+0x18]; jmp rax        (a function pointer in a structure)
TEST(IndirectJump, APointerLoadedThroughAnArgumentIsRefused) {
  test::Discovered d({0x48, 0x8b, 0x47, 0x18, 0xff, 0xe0});
  EXPECT_NE(unresolvedReason(d).find("loaded through rdi"), std::string::npos)
      << unresolvedReason(d);
}

// mov rax, [rip+0x100000]; jmp rax
TEST(IndirectJump, ASlotOutsideTheImageIsRefused) {
  test::Discovered d({0x48, 0x8b, 0x05, 0x00, 0x00, 0x10, 0x00, 0xff, 0xe0});
  EXPECT_NE(unresolvedReason(d).find("outside the image"), std::string::npos)
      << unresolvedReason(d);
}

// mov eax, 0x90000; jmp rax
TEST(IndirectJump, AConstantThatIsNotCodeIsRefused) {
  test::Discovered d({0xb8, 0x00, 0x00, 0x09, 0x00, 0xff, 0xe0});
  EXPECT_NE(unresolvedReason(d).find("0x90000 is not code"), std::string::npos)
      << unresolvedReason(d);
}

// test edi, edi; je A; lea rax, [rip+L]; jmp J; A: mov rax, [rsi]; J: jmp rax; L: ret
TEST(IndirectJump, OnePathWithoutAConstantRefusesTheJump) {
  test::Discovered d({0x85, 0xff, 0x74, 0x09, 0x48, 0x8d, 0x05, 0x07, 0x00, 0x00, 0x00, 0xeb, 0x03,
                      0x48, 0x8b, 0x06, 0xff, 0xe0, 0xc3});
  EXPECT_NE(unresolvedReason(d).find("loaded through rsi"), std::string::npos)
      << unresolvedReason(d);
}

// lea rax, [rip+L]; add rax, rdi; jmp rax; L: ret
TEST(IndirectJump, ArithmeticOnTheTargetIsRefused) {
  test::Discovered d(
      {0x48, 0x8d, 0x05, 0x05, 0x00, 0x00, 0x00, 0x48, 0x01, 0xf8, 0xff, 0xe0, 0xc3});
  EXPECT_NE(unresolvedReason(d).find("computed (0x1007: add rax, rdi)"), std::string::npos)
      << unresolvedReason(d);
}

// mov eax, 0; test rax, rax; je L; jmp rax; L: ret    (crtstuff and an undefined weak symbol)
TEST(IndirectJump, AZeroTargetIsNeverTaken) {
  test::Discovered d(
      {0xb8, 0x00, 0x00, 0x00, 0x00, 0x48, 0x85, 0xc0, 0x74, 0x02, 0xff, 0xe0, 0xc3});
  EXPECT_NE(unresolvedReason(d).find("never taken"), std::string::npos) << unresolvedReason(d);
}
