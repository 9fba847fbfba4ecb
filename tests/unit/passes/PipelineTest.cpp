// hoist::optimizeModule: the levels, the fixpoint's stopping rule and budget, the Image it
// reads, and the callers' passes it runs in its rounds (also through liftProgram). The passes
// themselves are tested one by one in tests/lit/passes.
#include "Passes/LargeFunctionNotes.h"
#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"
#include "hoist/Optimize.h"
#include "hoist/Program.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

constexpr uint64_t Base = 0x1000;

// mov eax, [rip - 6] (its own first four bytes); cmp rdi, rsi; setl cl; ret
const std::vector<uint8_t> Code = {0x8b, 0x05, 0xfa, 0xff, 0xff, 0xff, 0x48,
                                   0x39, 0xf7, 0x0f, 0x9c, 0xc1, 0xc3};

struct Lifted {
  std::unique_ptr<Image> image = Image::fromRawBytes(Code, Base);
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  std::unique_ptr<llvm::Module> module;

  Lifted() {
    Lifter lifter(*image, context, diagnostics);
    if (llvm::Expected<llvm::Function *> lifted = lifter.liftFunction(Base); !lifted)
      ADD_FAILURE() << llvm::toString(lifted.takeError());
    module = lifter.takeModule();
  }

  /// Loads through the memory argument (State loads are through the first one).
  unsigned memoryLoads() const {
    unsigned count = 0;
    for (const llvm::Function &function : *module)
      for (const llvm::BasicBlock &block : function)
        for (const llvm::Instruction &inst : block)
          if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
            count += load->getPointerOperand()->stripInBoundsConstantOffsets() !=
                     function.getArg(0);
    return count;
  }
};

TEST(Pipeline, LevelZeroLeavesTheModuleAlone) {
  Lifted lifted;
  uint64_t before = countInstructions(*lifted.module);
  OptimizeReport report = optimizeModule(*lifted.module, lifted.image.get(), {.level = 0});
  EXPECT_EQ(report.instructionsBefore, before);
  EXPECT_EQ(report.instructionsAfter, before);
  EXPECT_TRUE(report.instructionsPerRound.empty());
  EXPECT_EQ(countInstructions(*lifted.module), before);
}

TEST(Pipeline, AFunctionPastTheSizeLimitGetsTheCheaperPipelineAndANote) {
  Lifted lifted;
  llvm::Function *function = lifted.module->getFunction("fn_1000");
  ASSERT_TRUE(function);
  uint64_t before = function->getInstructionCount();
  OptimizeOptions options{.level = 2, .largeFunctionInstructions = before - 1};
  OptimizeReport report = optimizeModule(*lifted.module, lifted.image.get(), options);
  ASSERT_EQ(report.largeFunctions.size(), 1u);
  EXPECT_EQ(report.largeFunctions[0].first, function);
  EXPECT_EQ(report.largeFunctions[0].second, before);
  // At most two rounds, and LLVM's O2 leaves it alone.
  EXPECT_LE(report.instructionsPerRound.size(), 2u);
  EXPECT_TRUE(function->hasFnAttribute(llvm::Attribute::OptimizeNone));
  EXPECT_LT(function->getInstructionCount(), before);   // the cleanup still ran
  EXPECT_FALSE(llvm::verifyModule(*lifted.module, &llvm::errs()));
  DiagnosticSink notes;
  noteLargeFunctions(report, options, notes);
  ASSERT_EQ(notes.all().size(), 1u);
  EXPECT_EQ(notes.all()[0].code, "large-function");
  EXPECT_EQ(notes.all()[0].address, std::optional<uint64_t>(Base));
}

TEST(Pipeline, AFunctionWithinTheSizeLimitGetsTheWholePipeline) {
  Lifted lifted;
  llvm::Function *function = lifted.module->getFunction("fn_1000");
  ASSERT_TRUE(function);
  OptimizeReport report = optimizeModule(
      *lifted.module, lifted.image.get(),
      {.level = 2, .largeFunctionInstructions = function->getInstructionCount()});
  EXPECT_TRUE(report.largeFunctions.empty());
  EXPECT_FALSE(function->hasFnAttribute(llvm::Attribute::OptimizeNone));
}

TEST(Pipeline, FixpointStopsAtTheFirstRoundThatChangesNothing) {
  Lifted lifted;
  OptimizeReport report = optimizeModule(*lifted.module, lifted.image.get(), {.level = 1});
  const std::vector<uint64_t> &rounds = report.instructionsPerRound;
  ASSERT_GE(rounds.size(), 2u);
  EXPECT_EQ(rounds[rounds.size() - 1], rounds[rounds.size() - 2]);
  for (size_t i = 0; i + 2 < rounds.size(); ++i)
    EXPECT_NE(rounds[i], rounds[i + 1]) << "round " << i + 2 << " changed nothing yet more ran";
  EXPECT_LT(rounds.front(), report.instructionsBefore);
  EXPECT_EQ(report.instructionsAfter, rounds.back());   // -O1 stops after the fixpoint
  EXPECT_FALSE(llvm::verifyModule(*lifted.module, &llvm::errs()));
}

TEST(Pipeline, ReportSaysWhatEachRoundRanAndChanged) {
  Lifted lifted;
  OptimizeReport report = optimizeModule(*lifted.module, lifted.image.get(), {.level = 1});
  ASSERT_EQ(report.functionsPerRound.size(), report.instructionsPerRound.size());
  for (uint64_t functions : report.functionsPerRound)
    EXPECT_EQ(functions, 1u);   // the one lifted function, until its round changes nothing
  uint64_t changedInFirst = 0;
  for (const PassActivity &pass : report.passActivity) {
    EXPECT_EQ(pass.ran + pass.skipped, 1u) << pass.pass << " in round " << pass.round;
    EXPECT_LE(pass.round, report.instructionsPerRound.size());
    EXPECT_LE(pass.changed, pass.ran);
    if (pass.round == 1)
      changedInFirst += pass.changed;
  }
  EXPECT_GT(changedInFirst, 0u);
}

TEST(Pipeline, LaterRoundsStartAtInstCombine) {
  // After the first round, the passes before InstCombine but SROA, and the first SimplifyCFG,
  // are left out (lib/Passes/CleanupRound.cpp); the passes after InstCombine keep their slots.
  Lifted lifted;
  OptimizeReport report = optimizeModule(*lifted.module, lifted.image.get(), {.level = 1});
  ASSERT_GE(report.functionsPerRound.size(), 2u);   // the first round changes the count
  bool laterInstCombine = false;
  for (const PassActivity &pass : report.passActivity) {
    if (pass.round == 1)
      continue;
    llvm::StringRef name = pass.pass;
    for (const char *leftOut : {"EarlyCSEPass#0", "SimplifyCFGPass#0", "FoldFlagIdiomsPass#0",
                                "NarrowTruncLoadsPass#0", "DeadStateStoresPass#0",
                                "FoldImageLoadsPass#0", "ReassociatePass#0"})
      EXPECT_FALSE(name.ends_with(leftOut)) << pass.pass << " in round " << pass.round;
    laterInstCombine |= name.ends_with("InstCombinePass#0") && pass.ran == 1;
  }
  EXPECT_TRUE(laterInstCombine);
}

TEST(Pipeline, LaterRoundStopsWhereInstCombineKeptTheCount) {
  // The last round changes no instruction count, so it runs SROA and InstCombine (or skips
  // InstCombine on its own output) and none of the passes after InstCombine
  // (lib/Passes/CleanupRound.cpp): they are not even asked whether to skip.
  Lifted lifted;
  OptimizeReport report = optimizeModule(*lifted.module, lifted.image.get(), {.level = 1});
  unsigned last = report.functionsPerRound.size();
  ASSERT_GE(last, 2u);
  ASSERT_EQ(report.instructionsPerRound[last - 1], report.instructionsPerRound[last - 2]);
  bool sawInstCombine = false;
  for (const PassActivity &pass : report.passActivity) {
    if (pass.round != last)
      continue;
    llvm::StringRef name = pass.pass;
    sawInstCombine |= name.ends_with("InstCombinePass#0");
    EXPECT_TRUE(name.ends_with("SROAPass#0") || name.ends_with("InstCombinePass#0"))
        << pass.pass << " in the last round";
  }
  EXPECT_TRUE(sawInstCombine);
}

TEST(Pipeline, FixpointKeepsToItsRoundBudget) {
  Lifted lifted;
  OptimizeReport report =
      optimizeModule(*lifted.module, lifted.image.get(), {.level = 1, .maxFixpointRounds = 1});
  EXPECT_EQ(report.instructionsPerRound.size(), 1u);
}

TEST(Pipeline, SelectFunctionsLeavesTheOthersAlone) {
  Lifted lifted;
  llvm::Function *original = &*lifted.module->begin();
  // A copy of the lifted function that the selection leaves out.
  llvm::ValueToValueMapTy map;
  llvm::Function *untouched = llvm::CloneFunction(original, map);
  unsigned untouchedBefore = untouched->getInstructionCount();
  unsigned selectedBefore = original->getInstructionCount();
  optimizeModule(*lifted.module, lifted.image.get(),
                 {.level = 1, .selectFunctions = [original](const llvm::Function &function) {
                    return &function == original;
                  }});
  EXPECT_EQ(untouched->getInstructionCount(), untouchedBefore);
  EXPECT_LT(original->getInstructionCount(), selectedBefore);
  EXPECT_FALSE(llvm::verifyModule(*lifted.module, &llvm::errs()));
}

/// A caller's own pass (the plug-in point of OptimizeOptions::roundPasses and
/// LiftRequest::roundPasses): records the size of each function it runs on.
struct RecordSizesPass : llvm::PassInfoMixin<RecordSizesPass> {
  std::vector<unsigned> *sizes;
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &) {
    sizes->push_back(function.getInstructionCount());
    return llvm::PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

AddPasses recordSizes(std::vector<unsigned> &sizes) {
  return [&sizes](llvm::FunctionPassManager &passes) {
    passes.addPass(RecordSizesPass{{}, &sizes});
  };
}

TEST(Pipeline, RoundPassesRunFirstInEveryRound) {
  Lifted lifted;
  std::vector<unsigned> sizes;
  OptimizeOptions options{.level = 1};
  options.roundPasses.push_back(recordSizes(sizes));
  OptimizeReport report = optimizeModule(*lifted.module, lifted.image.get(), options);
  ASSERT_GE(report.functionsPerRound.size(), 2u);
  // In every round, on the one function; first in the round: round 1 sees the lifted code as it
  // was, round N the result of round N - 1.
  ASSERT_EQ(sizes.size(), report.instructionsPerRound.size());
  EXPECT_EQ(sizes[0], report.instructionsBefore);
  for (size_t round = 1; round < sizes.size(); ++round)
    EXPECT_EQ(sizes[round], report.instructionsPerRound[round - 1]) << "round " << round + 1;
}

TEST(Pipeline, LiftProgramTakesTheCallersRoundPasses) {
  std::unique_ptr<Image> image = Image::fromRawBytes(Code, Base);
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  std::vector<unsigned> sizes;
  LiftRequest request;
  request.functions = {Base};
  request.optLevel = 1;
  request.roundPasses.push_back(recordSizes(sizes));
  llvm::Expected<LiftedProgram> lifted = liftProgram(*image, context, request, diagnostics);
  ASSERT_TRUE(static_cast<bool>(lifted)) << llvm::toString(lifted.takeError());
  ASSERT_GE(sizes.size(), 2u);
  EXPECT_LT(sizes[1], sizes[0]);   // round 2 runs it on what round 1 cleaned up
}

TEST(Pipeline, ReadOnlyImageLoadsFoldOnlyWithTheImage) {
  Lifted withImage, withoutImage;
  ASSERT_EQ(withImage.memoryLoads(), 2u);   // the mov and ret's return address
  optimizeModule(*withImage.module, withImage.image.get(), {.level = 2});
  optimizeModule(*withoutImage.module, nullptr, {.level = 2});
  EXPECT_EQ(withImage.memoryLoads(), 1u);
  EXPECT_EQ(withoutImage.memoryLoads(), 2u);
}

} // namespace
