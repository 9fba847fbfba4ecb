// PartlyDeadStateStoresPass: a State store goes down to the branches that read what it wrote,
// and only there: not into a block other paths reach too, not past a call that reads State,
// not when both branches need it.
#include "Translate/PartlyDeadStateStores.h"

#include "Arch/StateLayout.h"
#include "Translate/RunPasses.h"

#include "ParseModule.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <set>

namespace hoist {
namespace {

/// Where the stores of the constant 7 (into State's rax, offset 0) are once the pass has run on
/// `body`, the blocks of a lifted function @fn (entry first; %state, %mem, and @fn_reader, a
/// lifted function that reads all of State), as "block" or "block<-predecessor" for a block
/// with one predecessor ("(new)" for a block the pass made, which it should not).
std::vector<std::string> placesOfStoredSeven(const std::string &body,
                                             bool writerSummarized = false) {
  llvm::LLVMContext context;
  std::string text =
      "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-"
      "n8:16:32:64-S128\"\n"
      "declare void @fn_reader(ptr noalias nocapture, ptr)\n"
      "define void @fn_writer(ptr noalias nocapture %state, ptr %mem) {\n"
      "  store i64 3, ptr %state\n"
      "  ret void\n"
      "}\n"
      "define void @fn(ptr noalias nocapture %state, ptr %mem) {\n" +
      body + "}\n";
  std::unique_ptr<llvm::Module> module = test::parseModule(text, context);
  if (!module)
    return {};
  llvm::Function &function = *module->getFunction("fn");
  std::set<const llvm::BasicBlock *> original;
  for (llvm::BasicBlock &block : function)
    original.insert(&block);
  // @fn_writer's summary: writes rax, reads nothing.
  StateEffectsMap effects;
  if (writerSummarized) {
    uint64_t size = module->getDataLayout().getTypeAllocSize(getStateType(context));
    StateEffects writer{llvm::BitVector(size, false), llvm::BitVector(size, false), "fn_writer"};
    writer.writes.set(0, 8);
    effects[module->getFunction("fn_writer")] = std::move(writer);
  }
  llvm::ModulePassManager pipeline;
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(PartlyDeadStateStoresPass(&effects)));
  runModulePasses(*module, pipeline);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  EXPECT_FALSE(llvm::verifyFunction(function, &out)) << problems;
  std::vector<std::string> places;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : block)
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
        if (auto *value = llvm::dyn_cast<llvm::ConstantInt>(store->getValueOperand());
            value && value->getZExtValue() == 7 && store->getPointerOperand() == function.getArg(0)) {
          std::string place = original.count(&block) ? block.getName().str() : "(new)";
          if (llvm::BasicBlock *predecessor = block.getSinglePredecessor())
            place += "<-" + predecessor->getName().str();
          places.push_back(place);
        }
  return places;
}

/// Where the tests below branch to: %cold reads all of State, %hot overwrites rax.
const std::string ReadOrOverwrite = "cold:\n"
                                    "  call void @fn_reader(ptr %state, ptr %mem)\n"
                                    "  ret void\n"
                                    "hot:\n"
                                    "  store i64 9, ptr %state\n"
                                    "  ret void\n";

// The branch that overwrites rax does not need the store; the one that calls a reader does.
TEST(PartlyDeadStateStores, SinksIntoTheBranchThatReads) {
  EXPECT_EQ(placesOfStoredSeven("entry:\n"
                                "  store i64 7, ptr %state\n"
                                "  %byte = load i8, ptr %mem\n"   // guest memory: no barrier
                                "  %rare = icmp eq i8 %byte, 0\n"
                                "  br i1 %rare, label %cold, label %hot\n" +
                                ReadOrOverwrite),
            std::vector<std::string>{"cold<-entry"});
}

// Two branches down, one per round: entry -> middle -> cold.
TEST(PartlyDeadStateStores, SinksBranchByBranch) {
  EXPECT_EQ(placesOfStoredSeven("entry:\n"
                                "  store i64 7, ptr %state\n"
                                "  %byte = load i8, ptr %mem\n"
                                "  %first = icmp eq i8 %byte, 0\n"
                                "  br i1 %first, label %middle, label %hot\n"
                                "middle:\n"
                                "  %second = icmp eq i8 %byte, 1\n"
                                "  br i1 %second, label %cold, label %hot2\n"
                                "cold:\n"
                                "  call void @fn_reader(ptr %state, ptr %mem)\n"
                                "  ret void\n"
                                "hot:\n"
                                "  store i64 9, ptr %state\n"
                                "  ret void\n"
                                "hot2:\n"
                                "  store i64 8, ptr %state\n"
                                "  ret void\n"),
            std::vector<std::string>{"cold<-middle"});
}

// The reading branch is also reached from a block that stored 5: the store stays, never goes
// into the shared block (where it would replace the 5).
TEST(PartlyDeadStateStores, KeepsAStoreForASharedSuccessor) {
  EXPECT_EQ(placesOfStoredSeven("entry:\n"
                                "  %byte = load i8, ptr %mem\n"
                                "  %other = icmp eq i8 %byte, 2\n"
                                "  br i1 %other, label %five, label %seven\n"
                                "five:\n"
                                "  store i64 5, ptr %state\n"
                                "  br label %cold\n"
                                "seven:\n"
                                "  store i64 7, ptr %state\n"
                                "  %rare = icmp eq i8 %byte, 0\n"
                                "  br i1 %rare, label %cold, label %hot\n" +
                                ReadOrOverwrite),
            std::vector<std::string>{"seven<-entry"});
}

// Both branches read rax: the store stays.
TEST(PartlyDeadStateStores, KeepsAStoreBothBranchesRead) {
  EXPECT_EQ(placesOfStoredSeven("entry:\n"
                                "  store i64 7, ptr %state\n"
                                "  %byte = load i8, ptr %mem\n"
                                "  %rare = icmp eq i8 %byte, 0\n"
                                "  br i1 %rare, label %cold, label %hot\n"
                                "cold:\n"
                                "  call void @fn_reader(ptr %state, ptr %mem)\n"
                                "  ret void\n"
                                "hot:\n"
                                "  %rax = load i64, ptr %state\n"
                                "  %next = add i64 %rax, 1\n"
                                "  store i64 %next, ptr %state\n"
                                "  ret void\n"),
            std::vector<std::string>{"entry"});
}

// A call that reads State between the store and the branch: the store must stay before it.
TEST(PartlyDeadStateStores, KeepsAStoreBeforeACallThatReadsState) {
  EXPECT_EQ(placesOfStoredSeven("entry:\n"
                                "  store i64 7, ptr %state\n"
                                "  call void @fn_reader(ptr %state, ptr %mem)\n"
                                "  %byte = load i8, ptr %mem\n"
                                "  %rare = icmp eq i8 %byte, 0\n"
                                "  br i1 %rare, label %cold, label %hot\n" +
                                ReadOrOverwrite),
            std::vector<std::string>{"entry"});
}

// A lifted callee that writes rax without reading it: the store stays before the call, which
// must overwrite it (moved below the call, the 7 would replace the callee's 3).
TEST(PartlyDeadStateStores, KeepsAStoreBeforeACallThatWritesState) {
  EXPECT_EQ(placesOfStoredSeven("entry:\n"
                                "  store i64 7, ptr %state\n"
                                "  call void @fn_writer(ptr %state, ptr %mem)\n"
                                "  %byte = load i8, ptr %mem\n"
                                "  %rare = icmp eq i8 %byte, 0\n"
                                "  br i1 %rare, label %cold, label %hot\n" +
                                ReadOrOverwrite,
                                /*writerSummarized=*/true),
            std::vector<std::string>{"entry"});
}

// A load of rax after the store in the same block: the store stays above it.
TEST(PartlyDeadStateStores, KeepsAStoreReadLaterInItsBlock) {
  EXPECT_EQ(placesOfStoredSeven("entry:\n"
                                "  store i64 7, ptr %state\n"
                                "  %rax = load i64, ptr %state\n"
                                "  store i64 %rax, ptr %mem\n"
                                "  %byte = load i8, ptr %mem\n"
                                "  %rare = icmp eq i8 %byte, 0\n"
                                "  br i1 %rare, label %cold, label %hot\n" +
                                ReadOrOverwrite),
            std::vector<std::string>{"entry"});
}

} // namespace
} // namespace hoist
