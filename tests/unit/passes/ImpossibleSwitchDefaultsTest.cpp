// ImpossibleSwitchDefaultsPass: a jump table's switch on `and %x, MASK`, or on a value whose
// upper bits are zero, behind a bounds check of its `trunc`, loses its default exactly when the
// checked range holds only cases.
#include "Passes/ImpossibleSwitchDefaults.h"

#include "ParseModule.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

namespace hoist {
namespace {

/// Runs the pass on @fn of `text`; whether its switch kept its default.
bool switchDefaultSurvives(const std::string &text) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = test::parseModule(text, context);
  if (!module)
    return true;
  unsigned removed = 0;
  llvm::PassBuilder builder;
  llvm::FunctionAnalysisManager analyses;
  builder.registerFunctionAnalyses(analyses);
  ImpossibleSwitchDefaultsPass(&removed).run(*module->getFunction("fn"), analyses);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  EXPECT_FALSE(llvm::verifyModule(*module, &out)) << problems;
  for (llvm::BasicBlock &block : *module->getFunction("fn"))
    if (auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(block.getTerminator())) {
      bool survives =
          !llvm::isa<llvm::UnreachableInst>(switchInst->getDefaultDest()->getFirstNonPHIOrDbg());
      EXPECT_EQ(removed, survives ? 0u : 1u);
      return survives;
    }
  ADD_FAILURE() << "no switch left";
  return true;
}

/// A function @fn that checks `trunc %x to i8` against
/// `bound` (`ugt`: above it goes elsewhere), then switches on `and %x, 7` with cases `cases`
/// (`i64 0, label %case` ...). With `checkX` false the check is of another value, `trunc %y`,
/// and `trunc %x` only comes after the switch. Returns whether the default survived.
bool defaultSurvives(int bound, const std::string &cases, bool checkX = true) {
  std::string checked = checkX ? "%x" : "%y";
  std::string check = "  %t = trunc i64 " + checked +
                      " to i8\n"
                      "  %big = icmp ugt i8 %t, " +
                      std::to_string(bound) + "\n";
  std::string text = std::string("define void @fn(ptr noalias nocapture %state, ptr %mem) {\n") +
                     "entry:\n"
                     "  %x = load i64, ptr %state\n"
                     "  %y = load i64, ptr %mem\n" +
                     check +
                     "  br i1 %big, label %out, label %table\n"
                     "table:\n"
                     "  %i = and i64 %x, 7\n"
                     "  switch i64 %i, label %default [\n" +
                     cases +
                     "  ]\n"
                     "default:\n"
                     "  store i64 1, ptr %state\n"
                     "  ret void\n"
                     "case:\n"
                     "  store i64 2, ptr %state\n"
                     "  ret void\n"
                     "out:\n" +
                     (checkX ? "" : "  %tx = trunc i64 %x to i8\n  store i8 %tx, ptr %state\n") +
                     "  ret void\n"
                     "}\n";
  return switchDefaultSurvives(text);
}

std::string ZeroToThreeTo(const std::string &label) {
  std::string cases;
  for (int value = 0; value <= 3; ++value)
    cases += "    i64 " + std::to_string(value) + ", label %" + label + "\n";
  return cases;
}

/// A loop around a jump table as zlib's `inflate` has it: the index a phi of a phi of
/// zero-extended values (each with another use, so InstCombine keeps them wide) and
/// constants, checked as `trunc ... to i32` against 3, switched on whole with cases 0 to 3.
/// With `entering` an i64 the entry's value may have any upper bits.
bool loopDefaultSurvives(const std::string &entering) {
  std::string text =
      "define void @fn(ptr noalias nocapture %state, ptr %mem, i1 %c) {\n"
      "entry:\n"
      "  %a = load " + entering + ", ptr %state\n" +
      (entering == "i64" ? "  %za = add i64 %a, 0\n" : "  %za = zext " + entering + " %a to i64\n") +
      "  store i64 %za, ptr %mem\n"
      "  br i1 %c, label %first, label %merge\n"
      "first:\n"
      "  br label %merge\n"
      "merge:\n"
      "  %m = phi i64 [ %za, %entry ], [ 12, %first ]\n"
      "  br label %head\n"
      "head:\n"
      "  %x = phi i64 [ %m, %merge ], [ %zb, %latch ]\n"
      "  %t = trunc i64 %x to i32\n"
      "  %big = icmp ugt i32 %t, 3\n"
      "  br i1 %big, label %out, label %table\n"
      "table:\n"
      "  switch i64 %x, label %default [\n" +
      ZeroToThreeTo("latch") +
      "  ]\n"
      "latch:\n"
      "  %b = load i8, ptr %mem\n"
      "  %zb = zext i8 %b to i64\n"
      "  store i64 %zb, ptr %state\n"
      "  br label %head\n"
      "default:\n"
      "  store i64 1, ptr %state\n"
      "  ret void\n"
      "out:\n"
      "  ret void\n"
      "}\n";
  return switchDefaultSurvives(text);
}

const std::string ZeroToThree = ZeroToThreeTo("case");

TEST(ImpossibleSwitchDefaults, BoundedIndexWithACaseForEachValueLosesTheDefault) {
  EXPECT_FALSE(defaultSurvives(3, ZeroToThree));
}

TEST(ImpossibleSwitchDefaults, AValueWithoutACaseKeepsTheDefault) {
  EXPECT_TRUE(defaultSurvives(4, ZeroToThree));
  EXPECT_TRUE(defaultSurvives(3, "    i64 0, label %case\n    i64 1, label %case\n"
                                 "    i64 3, label %case\n"));
}

TEST(ImpossibleSwitchDefaults, ACheckOfAnotherValueOrATruncAfterTheSwitchProvesNothing) {
  EXPECT_TRUE(defaultSurvives(3, ZeroToThree, /*checkX=*/false));
}

TEST(ImpossibleSwitchDefaults, AnIndexWhoseUpperBitsAreZeroIsBoundedByItsCheckedTruncation) {
  EXPECT_FALSE(loopDefaultSurvives("i32"));
  EXPECT_FALSE(loopDefaultSurvives("i16"));
}

TEST(ImpossibleSwitchDefaults, AnIndexThatMayHaveUpperBitsKeepsTheDefault) {
  EXPECT_TRUE(loopDefaultSurvives("i64"));
}

} // namespace
} // namespace hoist
