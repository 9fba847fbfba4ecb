// ImpossibleSwitchDefaultsPass: a jump table's switch on `and %x, MASK`, or on a value whose
// upper bits are zero, behind a bounds check of its `trunc`, loses its default exactly when the
// checked range holds only cases.
#include "Passes/ImpossibleSwitchDefaults.h"

#include "ParseModule.h"
#include "RunPass.h"

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
  for (llvm::BasicBlock &block : test::runOnFn(*module, ImpossibleSwitchDefaultsPass(&removed)))
    if (auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(block.getTerminator())) {
      bool survives =
          !llvm::isa<llvm::UnreachableInst>(switchInst->getDefaultDest()->getFirstNonPHIOrDbg());
      EXPECT_EQ(removed, survives ? 0u : 1u);
      return survives;
    }
  ADD_FAILURE() << "no switch left";
  return true;
}

/// Runs the pass on @fn of `text`; the number of cases its switch keeps.
unsigned casesLeft(const std::string &text) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = test::parseModule(text, context);
  if (!module)
    return ~0u;
  for (llvm::BasicBlock &block : test::runOnFn(*module, ImpossibleSwitchDefaultsPass()))
    if (auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(block.getTerminator()))
      return switchInst->getNumCases();
  ADD_FAILURE() << "no switch left";
  return ~0u;
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

// make's do_variable_definition: behind `cmp $6, %r8d; ja`, the index `and %x, 7` has a case
// for 7 (SimplifyCFG made the table's default one); it can never be taken.
TEST(ImpossibleSwitchDefaults, ACaseOutsideTheCheckedRangeIsRemoved) {
  auto text = [](int bound) {
    return "define void @fn(ptr noalias nocapture %state) {\n"
           "entry:\n"
           "  %x = load i64, ptr %state\n"
           "  %t = trunc i64 %x to i32\n"
           "  %big = icmp ugt i32 %t, " + std::to_string(bound) + "\n"
           "  br i1 %big, label %out, label %table\n"
           "table:\n"
           "  %i = and i64 %x, 7\n"
           "  switch i64 %i, label %out [\n" + ZeroToThreeTo("case") +
           "    i64 4, label %case\n    i64 5, label %case\n    i64 6, label %case\n"
           "    i64 7, label %jump\n"
           "  ]\n"
           "case:\n  store i64 2, ptr %state\n  ret void\n"
           "jump:\n  store i64 3, ptr %state\n  ret void\n"
           "out:\n  ret void\n"
           "}\n";
  };
  EXPECT_EQ(casesLeft(text(6)), 7u);
  EXPECT_EQ(casesLeft(text(7)), 8u);
}

// A phi of 0 and a byte-wide value whose truncation was checked on its own edge (make's
// parse_var_assignment), and a truncation of a phi of a byte extended after its check and a
// value whose truncation was checked (ls's `cmp $0x7a, %dil` on two paths).
TEST(ImpossibleSwitchDefaults, EachIncomingValueIsBoundedByTheCheckOnItsEdge) {
  auto phiOfChecked = [](int bound) {
    return "define void @fn(ptr noalias nocapture %state, i1 %c) {\n"
           "entry:\n"
           "  br i1 %c, label %zero, label %load\n"
           "zero:\n  br label %table\n"
           "load:\n"
           "  %b = load i8, ptr %state\n"
           "  %x = zext i8 %b to i64\n"
           "  store i64 %x, ptr %state\n"
           "  %t = trunc i64 %x to i8\n"
           "  %big = icmp ugt i8 %t, " + std::to_string(bound) + "\n"
           "  br i1 %big, label %out, label %table\n"
           "table:\n"
           "  %i = phi i64 [ 0, %zero ], [ %x, %load ]\n"
           "  switch i64 %i, label %default [\n" + ZeroToThreeTo("case") + "  ]\n"
           "case:\n  store i64 2, ptr %state\n  ret void\n"
           "default:\n  store i64 1, ptr %state\n  ret void\n"
           "out:\n  ret void\n"
           "}\n";
  };
  EXPECT_FALSE(switchDefaultSurvives(phiOfChecked(3)));
  EXPECT_TRUE(switchDefaultSurvives(phiOfChecked(4)));
  auto truncOfPhi = [](int first, int second) {
    return "define void @fn(ptr noalias nocapture %state, ptr %mem, i1 %c) {\n"
           "entry:\n"
           "  br i1 %c, label %byte, label %word\n"
           "byte:\n"
           "  %b = load i8, ptr %mem\n"
           "  %zb = zext i8 %b to i64\n"
           "  %small = icmp ult i8 %b, " + std::to_string(first + 1) + "\n"
           "  br i1 %small, label %table, label %out\n"
           "word:\n"
           "  %w = load i64, ptr %state\n"
           "  %tw = trunc i64 %w to i8\n"
           "  %big = icmp ugt i8 %tw, " + std::to_string(second) + "\n"
           "  br i1 %big, label %out, label %table\n"
           "table:\n"
           "  %p = phi i64 [ %zb, %byte ], [ %w, %word ]\n"
           "  %i = trunc i64 %p to i8\n"
           "  switch i8 %i, label %default [\n"
           "    i8 0, label %case\n    i8 1, label %case\n    i8 2, label %case\n"
           "    i8 3, label %case\n"
           "  ]\n"
           "case:\n  store i64 2, ptr %state\n  ret void\n"
           "default:\n  store i64 1, ptr %state\n  ret void\n"
           "out:\n  ret void\n"
           "}\n";
  };
  EXPECT_FALSE(switchDefaultSurvives(truncOfPhi(3, 3)));
  EXPECT_TRUE(switchDefaultSurvives(truncOfPhi(4, 3)));
  EXPECT_TRUE(switchDefaultSurvives(truncOfPhi(3, 4)));
}

} // namespace
} // namespace hoist
