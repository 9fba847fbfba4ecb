// defineSetjmpImport: a lifted call of setjmp becomes the host's _setjmp in the caller's own
// frame, between the runtime's save and its restore; what is left of the import stops the
// program (a call through a pointer).
#include "Translate/NonlocalJumps.h"

#include "ParseModule.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>

#include <gtest/gtest.h>

namespace hoist {
namespace {

std::unique_ptr<llvm::Module> callerOf(llvm::StringRef import, llvm::LLVMContext &context) {
  std::string text = "declare void @\"import." + import.str() + "\"(ptr, ptr) #0\n" +
                     "define void @fn_1000(ptr noalias %state, ptr noalias %mem) {\n"
                     "entry:\n"
                     "  call void @\"import." + import.str() + "\"(ptr %state, ptr %mem)\n"
                     "  ret void\n"
                     "}\n"
                     "attributes #0 = { \"hoist-import\"=\"" + import.str() + "\" }\n";
  return test::parseModule(text, context);
}

/// The calls of @fn_1000 by callee name, in order.
std::vector<llvm::CallInst *> callsIn(llvm::Module &module) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &instruction : module.getFunction("fn_1000")->getEntryBlock())
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      calls.push_back(call);
  return calls;
}

TEST(NonlocalJumps, SetjmpBecomesTheHostsInTheCallersFrame) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = callerOf("_setjmp", context);
  ASSERT_TRUE(module);
  llvm::Function *import = module->getFunction("import._setjmp");
  EXPECT_EQ(defineSetjmpImport(*import, "_setjmp"), 1u);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  ASSERT_FALSE(llvm::verifyModule(*module, &out)) << problems;

  std::vector<llvm::CallInst *> calls = callsIn(*module);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0]->getCalledFunction()->getName(), "hoist_setjmp_save");
  EXPECT_EQ(calls[1]->getCalledFunction()->getName(), "_setjmp");
  EXPECT_TRUE(calls[1]->canReturnTwice());
  EXPECT_EQ(calls[2]->getCalledFunction()->getName(), "hoist_setjmp_returned");
  // The host's result decides what the runtime restores; State is the runtime's to write.
  EXPECT_EQ(calls[2]->getArgOperand(1), calls[1]);
  EXPECT_EQ(calls[2]->getArgOperand(0), module->getFunction("fn_1000")->getArg(0));
  EXPECT_EQ(module->getFunction("fn_1000")->getFnAttribute("disable-tail-calls").getValueAsString(),
            "true");
  // _setjmp never saves the signal mask.
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(calls[0]->getArgOperand(1))->getZExtValue(), 0u);

  // The import itself is what a pointer reaches: it stops the program.
  ASSERT_FALSE(import->isDeclaration());
  auto *stop = llvm::dyn_cast<llvm::CallInst>(&import->getEntryBlock().front());
  ASSERT_NE(stop, nullptr);
  EXPECT_EQ(stop->getCalledFunction()->getName(), "hoist_indirect_setjmp");
}

TEST(NonlocalJumps, MaskIsSavedAsEachVariantDoes) {
  for (auto [name, saving] : {std::pair<const char *, uint64_t>{"setjmp", 1},
                              {"__sigsetjmp", 2},
                              {"_setjmp@GLIBC_2.2.5", 0}}) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = callerOf(name, context);
    ASSERT_TRUE(module);
    defineSetjmpImport(*module->getFunction(std::string("import.") + name), name);
    std::vector<llvm::CallInst *> calls = callsIn(*module);
    ASSERT_FALSE(calls.empty()) << name;
    EXPECT_EQ(llvm::cast<llvm::ConstantInt>(calls[0]->getArgOperand(1))->getZExtValue(), saving)
        << name;
  }
}

TEST(NonlocalJumps, OnlyTheSetjmpFamilyIsExpanded) {
  for (const char *name : {"setjmp", "_setjmp", "__sigsetjmp", "_setjmp@GLIBC_2.2.5"})
    EXPECT_TRUE(isSetjmpImport(name)) << name;
  // longjmp is the library's (or the runtime's in its GOT slot): an ordinary import call.
  for (const char *name : {"longjmp", "siglongjmp", "__longjmp_chk", "sigsetjmp_like", "signal"})
    EXPECT_FALSE(isSetjmpImport(name)) << name;
}

} // namespace
} // namespace hoist
