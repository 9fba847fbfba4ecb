// The split of `hoist translate -j N` (PartitionedObjects.h): every function is dealt to
// exactly one partition, the same whatever order the module lists them in; a module with a
// definition its object may drop is not split; locals get Hoist's names, hidden.
#include "Translate/PartitionedObjects.h"

#include "ParseModule.h"

#include <llvm/IR/LLVMContext.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace hoist {
namespace {

/// Four functions of 1, 2, 3 and 4 instructions and a table; `order` lists them.
std::string fourFunctions(const std::vector<int> &order) {
  std::string text = "@table = internal constant [1 x ptr] [ptr @f1]\n";
  for (int size : order) {
    text += "define internal void @f" + std::to_string(size) + "(ptr %p) {\n";
    for (int i = 1; i < size; ++i)
      text += "  store volatile i8 0, ptr %p\n";
    text += "  ret void\n}\n";
  }
  return text;
}

TEST(PartitionedObjects, DealsEachFunctionToOnePartitionWhateverTheOrder) {
  llvm::LLVMContext context;
  auto ascending = test::parseModule(fourFunctions({1, 2, 3, 4}), context);
  auto shuffled = test::parseModule(fourFunctions({3, 1, 4, 2}), context);
  ASSERT_TRUE(ascending && shuffled);
  EXPECT_EQ(partitionCount(*ascending, 2), 2u);
  std::vector<std::vector<std::string>> parts = assignPartitions(*ascending, 2);
  EXPECT_EQ(parts, assignPartitions(*shuffled, 2));
  // Largest first, each to the smallest so far: 4 | 3, then 2 to the 3, then 1 to the 4.
  std::vector<std::vector<std::string>> expected = {{"f4", "f1", "table"}, {"f3", "f2"}};
  EXPECT_EQ(parts, expected);
}

TEST(PartitionedObjects, NoMorePartitionsThanFunctions) {
  llvm::LLVMContext context;
  auto module = test::parseModule(fourFunctions({1, 2}), context);
  ASSERT_TRUE(module);
  EXPECT_EQ(partitionCount(*module, 8), 2u);
  EXPECT_EQ(partitionCount(*module, 1), 1u);
}

TEST(PartitionedObjects, DroppableDefinitionKeepsTheModuleWhole) {
  llvm::LLVMContext context;
  auto module = test::parseModule(fourFunctions({1, 2}) +
                                      "define linkonce_odr void @shared() {\n  ret void\n}\n",
                                  context);
  ASSERT_TRUE(module);
  EXPECT_EQ(partitionCount(*module, 2), 1u);
}

TEST(PartitionedObjects, LocalsGetHiddenNamesOfTheirOwn) {
  llvm::LLVMContext context;
  auto module = test::parseModule("define internal void @mprotect() {\n  ret void\n}\n"
                                  "define void @main() {\n  call void @mprotect()\n  ret void\n}\n",
                                  context);
  ASSERT_TRUE(module);
  externalizeLocals(*module);
  llvm::Function *renamed = module->getFunction(".hoist.local.mprotect");
  ASSERT_NE(renamed, nullptr);
  EXPECT_TRUE(renamed->hasExternalLinkage());
  EXPECT_TRUE(renamed->hasHiddenVisibility());
  EXPECT_EQ(module->getFunction("mprotect"), nullptr);
  llvm::Function *main = module->getFunction("main");
  ASSERT_NE(main, nullptr);
  EXPECT_TRUE(main->hasDefaultVisibility());   // external symbols keep their names
}

} // namespace
} // namespace hoist
