// RedundantStateStores and locked instructions: a lifted `lock add` on guest memory (an
// atomicrmw or cmpxchg through the memory argument) writes no State field, so a writeback of
// a field's own value after it is still redundant; one on State forgets what was known.
#include "Translate/RedundantStateStores.h"

#include "ParseModule.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <gtest/gtest.h>

namespace hoist {
namespace {

/// The stores left in @fn once removeRedundantStateStores ran on it: `between` comes after
/// the load of State's rax (offset 0) and before the store of that value back.
unsigned storesLeft(const std::string &between) {
  llvm::LLVMContext context;
  std::string text =
      "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-"
      "n8:16:32:64-S128\"\n"
      "define void @fn(ptr noalias nocapture %state, ptr %mem) {\n"
      "  %rax = load i64, ptr %state\n"
      "  %guest = getelementptr i8, ptr %mem, i64 4096\n" +
      between +
      "  store i64 %rax, ptr %state\n"
      "  ret void\n"
      "}\n";
  std::unique_ptr<llvm::Module> module = test::parseModule(text, context);
  EXPECT_TRUE(module);
  if (!module)
    return ~0u;
  removeRedundantStateStores(*module, nullptr);
  unsigned stores = 0;
  for (llvm::BasicBlock &block : *module->getFunction("fn"))
    for (llvm::Instruction &instruction : block)
      stores += llvm::isa<llvm::StoreInst>(instruction);
  return stores;
}

TEST(RedundantStateStores, AGuestAtomicKeepsWhatStateHolds) {
  EXPECT_EQ(storesLeft("  %old = atomicrmw add ptr %guest, i64 1 seq_cst, align 8\n"), 0u);
  EXPECT_EQ(storesLeft("  %pair = cmpxchg ptr %guest, i64 0, i64 1 seq_cst seq_cst, align 8\n"),
            0u);
}

TEST(RedundantStateStores, AnAtomicOnStateForgetsIt) {
  EXPECT_EQ(storesLeft("  %old = atomicrmw add ptr %state, i64 1 seq_cst, align 8\n"), 1u);
}

} // namespace
} // namespace hoist
