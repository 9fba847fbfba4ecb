// deobf::proveEqual's budget: a count of Z3's work (rlimit units), so that a verdict does not
// depend on the machine's load; the wall-clock limit is only a backstop.
#include "Deobf/Passes/Prover.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

/// ((4x ^ 60) + 3x + 4) & 63 against (0 - x) & 63 over i32 x: equal (the shift amount of a
/// rotation as the MBA protection writes it), and not linear, so only Z3 proves it.
struct ShiftAmount {
  llvm::LLVMContext context;
  llvm::Module module{"prover", context};
  llvm::Function *function;
  std::optional<deobf::Expression> expression;

  ShiftAmount() {
    llvm::Type *i32 = llvm::Type::getInt32Ty(context);
    function = llvm::Function::Create(llvm::FunctionType::get(i32, {i32}, false),
                                      llvm::Function::ExternalLinkage, "amount", module);
    llvm::IRBuilder<> build(llvm::BasicBlock::Create(context, "entry", function));
    llvm::Value *x = function->getArg(0);
    llvm::Value *encoded = build.CreateAnd(
        build.CreateAdd(build.CreateAdd(build.CreateXor(build.CreateShl(x, 2), 60),
                                        build.CreateMul(x, build.getInt32(3))),
                        build.getInt32(4)),
        63);
    llvm::Value *plain = build.CreateAnd(build.CreateSub(build.getInt32(0), x), 63);
    build.CreateRet(build.CreateAdd(encoded, plain));
    expression = deobf::Expression::collect({encoded, plain}, deobf::ExpressionKind::Mba, 64, 4);
  }
};

TEST(Prover, WorkCountNotTimeDecides) {
  if (!deobf::haveZ3())
    GTEST_SKIP() << "built without Z3";
  ShiftAmount amount;
  ASSERT_TRUE(amount.expression);
  // A day of wall-clock time, but one unit of Z3's work: out of budget, every time.
  constexpr unsigned Day = 86'400'000;
  for (int attempt = 0; attempt < 3; ++attempt)
    EXPECT_EQ(deobf::proveEqual(*amount.expression, Day, 1), deobf::Verdict::Unknown);
  // The passes' budget proves it.
  EXPECT_EQ(deobf::proveEqual(*amount.expression, deobf::PassProofBackstopMs,
                              deobf::PassProofResourceLimit),
            deobf::Verdict::Proved);
}

/// No budget at all, and still a verdict: a test point refutes before Z3 is asked.
TEST(Prover, TestsRefuteBeforeZ3) {
  ShiftAmount amount;
  ASSERT_TRUE(amount.expression);
  // (4x ^ 60) + 3x + 4 is not 0 - x on all 32 bits: the roots' operands differ on a test point.
  llvm::Instruction *encoded =
      llvm::cast<llvm::Instruction>(llvm::cast<llvm::Instruction>(amount.expression->root(0))
                                        ->getOperand(0));
  llvm::Instruction *plain =
      llvm::cast<llvm::Instruction>(llvm::cast<llvm::Instruction>(amount.expression->root(1))
                                        ->getOperand(0));
  std::optional<deobf::Expression> whole =
      deobf::Expression::collect({encoded, plain}, deobf::ExpressionKind::Mba, 64, 4);
  ASSERT_TRUE(whole);
  EXPECT_EQ(deobf::proveEqual(*whole, 0, 1), deobf::Verdict::Refuted);   // x = 0: 64 and 0
}

/// c + 3k - 2 * (((c + 7) & k) + ((0 - c) & k)) against c + k, k = zext of an i3 (count_calls
/// under all four protections at -O2): equal because k < 8 (c + 7 and -c are complements in
/// their low three bits), not over all words.
struct SmallCounter {
  llvm::LLVMContext context;
  llvm::Module module{"prover", context};
  llvm::Function *function;
  std::optional<deobf::Expression> expression;

  SmallCounter() {
    llvm::Type *i32 = llvm::Type::getInt32Ty(context);
    llvm::Type *i3 = llvm::Type::getIntNTy(context, 3);
    function = llvm::Function::Create(llvm::FunctionType::get(i32, {i3, i32}, false),
                                      llvm::Function::ExternalLinkage, "count", module);
    llvm::IRBuilder<> build(llvm::BasicBlock::Create(context, "entry", function));
    llvm::Value *k = build.CreateZExt(function->getArg(0), i32);
    llvm::Value *c = function->getArg(1);
    llvm::Value *pieces = build.CreateAdd(build.CreateAnd(build.CreateAdd(c, build.getInt32(7)), k),
                                          build.CreateAnd(build.CreateNeg(c), k));
    llvm::Value *encoded = build.CreateSub(
        build.CreateAdd(c, build.CreateMul(k, build.getInt32(3))), build.CreateShl(pieces, 1));
    llvm::Value *plain = build.CreateAdd(c, k);
    build.CreateRet(build.CreateXor(encoded, plain));
    expression = deobf::Expression::collect({encoded, plain}, deobf::ExpressionKind::Mba, 64, 4);
  }
};

TEST(Prover, KnownBitsRestrictTheInputs) {
  SmallCounter counter;
  ASSERT_TRUE(counter.expression);
  ASSERT_EQ(counter.expression->leaves().size(), 2u);   // the zext (a leaf) and c
  // Over all words: a test point with k >= 8 refutes.
  EXPECT_EQ(deobf::proveEqual(*counter.expression, deobf::PassProofBackstopMs,
                              deobf::PassProofResourceLimit),
            deobf::Verdict::Refuted);
  counter.expression->assumeKnownBits(counter.module.getDataLayout());
  const std::vector<llvm::Value *> &leaves = counter.expression->leaves();
  unsigned k = llvm::isa<llvm::ZExtInst>(leaves[0]) ? 0 : 1;
  EXPECT_EQ(counter.expression->knownZero(k), ~0ull << 3 & 0xffffffffull);   // k < 8
  EXPECT_EQ(counter.expression->knownZero(1 - k), 0u);
  EXPECT_EQ(counter.expression->unknownBits(), 3u + 32u);
  EXPECT_TRUE(deobf::testsAgree(*counter.expression));
  if (!deobf::haveZ3())
    GTEST_SKIP() << "built without Z3";
  EXPECT_EQ(deobf::proveEqual(*counter.expression, deobf::PassProofBackstopMs,
                              deobf::PassProofResourceLimit),
            deobf::Verdict::Proved);
}

/// With c an i8 too, 3 + 8 unknown bits: every input is tried, no Z3, and a wrong claim
/// (c + k + 1) is refuted by the same enumeration.
TEST(Prover, FewUnknownBitsAreEnumerated) {
  llvm::LLVMContext context;
  llvm::Module module{"prover", context};
  llvm::Type *i8 = llvm::Type::getInt8Ty(context);
  llvm::Type *i3 = llvm::Type::getIntNTy(context, 3);
  auto *function = llvm::Function::Create(llvm::FunctionType::get(i8, {i3, i8}, false),
                                          llvm::Function::ExternalLinkage, "count", module);
  llvm::IRBuilder<> build(llvm::BasicBlock::Create(context, "entry", function));
  llvm::Value *k = build.CreateZExt(function->getArg(0), i8);
  llvm::Value *c = function->getArg(1);
  llvm::Value *pieces = build.CreateAdd(build.CreateAnd(build.CreateAdd(c, build.getInt8(7)), k),
                                        build.CreateAnd(build.CreateNeg(c), k));
  llvm::Value *encoded = build.CreateSub(build.CreateAdd(c, build.CreateMul(k, build.getInt8(3))),
                                         build.CreateShl(pieces, 1));
  llvm::Value *plain = build.CreateAdd(c, k);
  llvm::Value *wrong = build.CreateAdd(plain, build.getInt8(1));
  build.CreateRet(build.CreateXor(encoded, wrong));
  for (auto [claim, verdict] :
       {std::pair{plain, deobf::Verdict::Proved}, std::pair{wrong, deobf::Verdict::Refuted}}) {
    std::optional<deobf::Expression> pair =
        deobf::Expression::collect({encoded, claim}, deobf::ExpressionKind::Mba, 64, 4);
    ASSERT_TRUE(pair);
    EXPECT_FALSE(deobf::decideByEnumeration(*pair, true)) << "16 unknown bits before known bits";
    pair->assumeKnownBits(module.getDataLayout());
    EXPECT_EQ(deobf::decideByEnumeration(*pair, true), verdict);
    EXPECT_EQ(deobf::proveEqual(*pair, 0, 1), verdict);   // no Z3 budget at all
  }
}

} // namespace
