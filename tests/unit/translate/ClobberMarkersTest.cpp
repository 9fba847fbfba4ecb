// removeClobberMarkers: a register read back from a library call's marker is undefined, and so
// is every value that only moves its bits; a writeback of nothing but such values is no store.
#include "Translate/ClobberMarkers.h"

#include "ParseModule.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>

#include <gtest/gtest.h>

namespace hoist {
namespace {

/// The number of stores left in @fn once the markers of `body` are removed. @fn is a lifted
/// function (%state, %mem, and %cond to branch on) whose %join block writes back st1 (State
/// offset 720) from a phi of %st1 (computed in %clobbered from the x87 marker %x87) and
/// whatever `otherPath` says comes from %kept.
size_t storesLeft(const std::string &clobbered, const std::string &otherPath) {
  llvm::LLVMContext context;
  std::string text =
      "declare <16 x i64> @\"hoist.clobbered.<16 x i64>\"(i32)\n"
      "define void @fn(ptr noalias nocapture %state, ptr %mem, i1 %cond) {\n"
      "entry:\n"
      "  br i1 %cond, label %clobbered, label %kept\n"
      "clobbered:\n"
      "  %x87 = call <16 x i64> @\"hoist.clobbered.<16 x i64>\"(i32 60)\n"
      "  store <16 x i64> %x87, ptr %state\n" +
      clobbered +
      "  br label %join\n"
      "kept:\n"
      "  %loaded = load x86_fp80, ptr %mem\n"
      "  br label %join\n"
      "join:\n"
      "  %value = phi x86_fp80 [ %st1, %clobbered ], [ " +
      otherPath +
      ", %kept ]\n"
      "  %field = getelementptr inbounds i8, ptr %state, i64 720\n"
      "  store x86_fp80 %value, ptr %field\n"
      "  ret void\n"
      "}\n";
  std::unique_ptr<llvm::Module> module = test::parseModule(text, context);
  if (!module)
    return ~size_t(0);
  removeClobberMarkers(*module);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  EXPECT_FALSE(llvm::verifyModule(*module, &out)) << problems;
  size_t stores = 0;
  for (llvm::BasicBlock &block : *module->getFunction("fn"))
    for (llvm::Instruction &instruction : block)
      stores += llvm::isa<llvm::StoreInst>(instruction);
  return stores;
}

/// st1 as the x87 registers are read back from their marker: bits 128 to 207.
const std::string SecondRegister = "  %wide = bitcast <16 x i64> %x87 to i1024\n"
                                   "  %high = lshr i1024 %wide, 128\n"
                                   "  %bits = trunc i1024 %high to i80\n"
                                   "  %st1 = bitcast i80 %bits to x86_fp80\n";

// Undefined after the library call, untouched (undef in SSA) on the other path: no store.
TEST(ClobberMarkers, WritebackOfUndefinedRegisterGoes) {
  EXPECT_EQ(storesLeft(SecondRegister, "undef"), 0u);
}

// On the other path the register holds a value the program loaded: the store stays.
TEST(ClobberMarkers, WritebackOfDefinedValueStays) {
  EXPECT_EQ(storesLeft(SecondRegister, "%loaded"), 1u);
}

// A shift that brings zeros into the kept bits makes a partly defined value: the store stays.
TEST(ClobberMarkers, ShiftedInZerosAreDefined) {
  EXPECT_EQ(storesLeft("  %wide = bitcast <16 x i64> %x87 to i1024\n"
                       "  %high = lshr i1024 %wide, 1000\n"
                       "  %bits = trunc i1024 %high to i80\n"
                       "  %st1 = bitcast i80 %bits to x86_fp80\n",
                       "undef"),
            1u);
}

} // namespace
} // namespace hoist
