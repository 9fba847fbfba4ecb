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

} // namespace
