// ImpossibleSwitchDefaultsPass: a jump table's switch on `and %x, MASK`, behind a bounds check
// of `trunc %x`, loses its default exactly when the checked range holds only cases.
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

/// A function @fn that checks `trunc %x to i8` against
/// `bound` (`ugt`: above it goes elsewhere), then switches on `and %x, 7` with cases `cases`
/// (`i64 0, label %case` ...). With `checkX` false the check is of another value, `trunc %y`,
/// and `trunc %x` only comes after the switch. Returns whether the default survived.
bool defaultSurvives(int bound, const std::string &cases, bool checkX = true) {
  llvm::LLVMContext context;
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

const std::string ZeroToThree = "    i64 0, label %case\n    i64 1, label %case\n"
                                "    i64 2, label %case\n    i64 3, label %case\n";

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

} // namespace
} // namespace hoist
