// hoist::CachedCaptureAA: the alias analysis of the cleanup (PassSetup) answers what LLVM's
// default pipeline answers about calls and lifted State, escaped or not.
#include "Passes/Passes.h"

#include "ParseModule.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/SourceMgr.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

// @escapes passes State to a call before reading it; @kept only calls a function without it.
constexpr const char *Source = R"(
declare void @callee(ptr)
declare void @other()

define i64 @escapes(ptr noalias %state) {
  %field = getelementptr i8, ptr %state, i64 16
  call void @callee(ptr %state)
  call void @other()
  %value = load i64, ptr %field
  ret i64 %value
}

define i64 @kept(ptr noalias %state) {
  %field = getelementptr i8, ptr %state, i64 16
  call void @other()
  %value = load i64, ptr %field
  ret i64 %value
}
)";

struct Parsed {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  Parsed() {
    module = hoist::test::parseModule(Source, context);
  }
};

/// What the function's alias analysis says each call does to the location its load reads.
std::vector<llvm::ModRefInfo> callsOnTheLoad(llvm::Function &function,
                                             llvm::FunctionAnalysisManager &analyses) {
  llvm::AAResults &aa = analyses.getResult<llvm::AAManager>(function);
  const llvm::LoadInst *load = nullptr;
  std::vector<const llvm::CallBase *> calls;
  for (llvm::Instruction &inst : function.getEntryBlock()) {
    if (auto *found = llvm::dyn_cast<llvm::LoadInst>(&inst))
      load = found;
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
      calls.push_back(call);
  }
  std::vector<llvm::ModRefInfo> answers;
  // Twice, as MemorySSA's walker asks: the second answer comes from the cache.
  for (int pass = 0; pass < 2; ++pass)
    for (const llvm::CallBase *call : calls)
      answers.push_back(aa.getModRefInfo(call, llvm::MemoryLocation::get(load)));
  return answers;
}

TEST(CachedCaptureAA, AnswersAsLlvmsDefaultAliasAnalysis) {
  Parsed withCache, withDefault;
  PassSetup cached(nullptr);
  // The default pipeline, registered first, is the one used.
  PassSetup llvmDefault(nullptr, [](llvm::PassBuilder &builder,
                                    llvm::FunctionAnalysisManager &functions) {
    functions.registerPass([&builder] { return builder.buildDefaultAAPipeline(); });
  });
  for (const char *name : {"escapes", "kept"})
    EXPECT_EQ(callsOnTheLoad(*withCache.module->getFunction(name), cached.functions),
              callsOnTheLoad(*withDefault.module->getFunction(name), llvmDefault.functions))
        << name;
  // What the answers are: an escaped State may be written by any call; one that never escapes
  // only by calls that receive it.
  std::vector<llvm::ModRefInfo> escapes =
      callsOnTheLoad(*withCache.module->getFunction("escapes"), cached.functions);
  EXPECT_EQ(escapes[1], llvm::ModRefInfo::ModRef);
  std::vector<llvm::ModRefInfo> kept =
      callsOnTheLoad(*withCache.module->getFunction("kept"), cached.functions);
  EXPECT_EQ(kept[0], llvm::ModRefInfo::NoModRef);
  EXPECT_EQ(kept[1], llvm::ModRefInfo::NoModRef);
}

} // namespace
