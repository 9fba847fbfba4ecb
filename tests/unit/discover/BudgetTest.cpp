// Every resource an input can drive is bounded (docs/ROBUSTNESS.md): instructions and blocks
// per function, discovery rounds, functions per program and per lift, and total time. A budget
// that runs out gives a `budget-exhausted` diagnostic and the partial result.
#include "Discover/FunctionDiscovery.h"
#include "Discover/ProgramDiscovery.h"
#include "Support/Diagnostics.h"
#include "Support/TimeBudget.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Verifier.h>
#include <gtest/gtest.h>

#include <thread>

using namespace hoist;

namespace {

constexpr uint64_t Base = 0x1000;
constexpr uint64_t FunctionSpacing = 16;

/// `count` nops and a ret.
std::vector<uint8_t> nopSled(size_t count) {
  std::vector<uint8_t> code(count, 0x90);
  code.push_back(0xc3);
  return code;
}

/// `count` functions 16 bytes apart, each calling the next and returning (the last only
/// returns): a call chain as deep as `count`.
std::vector<uint8_t> callChain(size_t count) {
  std::vector<uint8_t> code(count * FunctionSpacing, 0xcc);
  for (size_t i = 0; i < count; ++i) {
    uint8_t *function = code.data() + i * FunctionSpacing;
    if (i + 1 == count) {
      function[0] = 0xc3;
      break;
    }
    int32_t displacement = FunctionSpacing - 5;   // from the end of the call to the next function
    function[0] = 0xe8;                            // call rel32
    std::memcpy(function + 1, &displacement, sizeof displacement);
    function[5] = 0xc3;
  }
  return code;
}

LiftOptions withDeadlinePassed() {
  LiftOptions options;
  options.deadline = std::chrono::steady_clock::now();
  return options;
}

bool hasBudgetWarning(const DiagnosticSink &diagnostics, llvm::StringRef fragment) {
  for (const Diagnostic &d : diagnostics.all())
    if (d.code == "budget-exhausted" && llvm::StringRef(d.message).contains(fragment))
      return true;
  return false;
}

size_t instructionsExplored(const ExploredFunction &function) {
  size_t count = 0;
  for (const auto &[start, block] : function.blocks)
    count += block.instrs.size();
  return count;
}

struct Explored {
  std::unique_ptr<Image> image;
  InstructionCache cache;
  DiagnosticSink diagnostics;
  DiscoveredFunction function;

  Explored(const std::vector<uint8_t> &code, const LiftOptions &options)
      : image(Image::fromRawBytes(code, Base)), cache(*image) {
    function = discoverFunction(*image, cache, Base, options, diagnostics);
  }
};

TEST(BudgetTest, WithoutBudgetsALongFunctionIsExploredWhole) {
  Explored explored(nopSled(100000), LiftOptions{});
  EXPECT_FALSE(explored.function.explored.budgetExhausted);
  EXPECT_EQ(instructionsExplored(explored.function.explored), 100001u);
  EXPECT_TRUE(explored.diagnostics.all().empty());
}

TEST(BudgetTest, PassedDeadlineStopsExplorationEarly) {
  Explored explored(nopSled(100000), withDeadlinePassed());
  EXPECT_TRUE(explored.function.explored.budgetExhausted);
  EXPECT_TRUE(explored.function.explored.pastDeadline);
  EXPECT_LE(instructionsExplored(explored.function.explored), 1024u);
  EXPECT_TRUE(hasBudgetWarning(explored.diagnostics, "time budget (--timeout) exhausted"));
}

TEST(BudgetTest, InstructionBudgetCutsTheFunction) {
  LiftOptions options;
  options.maxInstructionsPerFunction = 100;
  Explored explored(nopSled(1000), options);
  EXPECT_TRUE(explored.function.explored.budgetExhausted);
  EXPECT_FALSE(explored.function.explored.pastDeadline);
  EXPECT_LE(instructionsExplored(explored.function.explored), 100u);
  EXPECT_TRUE(hasBudgetWarning(explored.diagnostics, "instruction or block budget exhausted"));
}

TEST(BudgetTest, BlockBudgetCutsTheFunction) {
  // `jz +0` a thousand times: every instruction starts a block of its own.
  std::vector<uint8_t> code;
  for (int i = 0; i < 1000; ++i)
    code.insert(code.end(), {0x74, 0x00});
  code.push_back(0xc3);
  LiftOptions options;
  options.maxBlocksPerFunction = 10;
  Explored explored(code, options);
  EXPECT_TRUE(explored.function.explored.budgetExhausted);
  EXPECT_LE(explored.function.explored.blocks.size(), 10u);
  EXPECT_TRUE(hasBudgetWarning(explored.diagnostics, "instruction or block budget exhausted"));
}

TEST(BudgetTest, DiscoveryRoundsStopAtTheirBudget) {
  // cmp edi, 1; ja 9f; lea rdx, [rip+table]; movsxd rax, [rdx+rdi*4]; add rax, rdx; jmp rax
  // 0: mov eax, 10; ret   9: ret   table: .long 0b-table, 9b-table
  const std::vector<uint8_t> table = {
      0x83, 0xff, 0x01, 0x77, 0x16, 0x48, 0x8d, 0x15, 0x10, 0x00, 0x00, 0x00, 0x48, 0x63,
      0x04, 0xba, 0x48, 0x01, 0xd0, 0xff, 0xe0, 0xb8, 0x0a, 0x00, 0x00, 0x00, 0xc3, 0xc3,
      0xf9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  Explored resolved(table, LiftOptions{});
  EXPECT_EQ(resolved.function.explored.jumpTables.size(), 1u);
  LiftOptions oneRound;
  oneRound.maxDiscoveryRounds = 1;
  Explored cut(table, oneRound);
  EXPECT_EQ(cut.function.rounds, 1u);
  EXPECT_TRUE(cut.function.explored.jumpTables.empty());
  ASSERT_EQ(cut.function.unresolvedJumps.size(), 1u);
  EXPECT_EQ(cut.function.unresolvedJumps[0].jump, 0x1013u);
}

struct Program {
  std::unique_ptr<Image> image;
  DiagnosticSink diagnostics;
  ProgramCfg cfg;

  Program(const std::vector<uint8_t> &code, const LiftOptions &options)
      : image(Image::fromRawBytes(code, Base)) {
    ProgramDiscoveryRequest request;
    request.roots = {Base};
    request.all = true;
    cfg = discoverProgram(*image, request, options, diagnostics);
  }
};

TEST(BudgetTest, ProgramDiscoveryFollowsAWholeCallChain) {
  Program program(callChain(200), LiftOptions{});
  EXPECT_EQ(program.cfg.functions.size(), 200u);
  EXPECT_FALSE(program.cfg.budgetExhausted);
}

TEST(BudgetTest, ProgramDiscoveryStopsAtTheFunctionBudget) {
  LiftOptions options;
  options.maxFunctions = 10;
  Program program(callChain(200), options);
  EXPECT_EQ(program.cfg.functions.size(), 10u);
  EXPECT_TRUE(program.cfg.budgetExhausted);
  EXPECT_TRUE(hasBudgetWarning(program.diagnostics, "function budget (10 functions)"));
}

TEST(BudgetTest, ProgramDiscoveryStopsAtThePassedDeadline) {
  Program program(callChain(200), withDeadlinePassed());
  EXPECT_LT(program.cfg.functions.size(), 200u);
  EXPECT_TRUE(program.cfg.budgetExhausted);
  EXPECT_TRUE(hasBudgetWarning(program.diagnostics, "program discovery stopped after"));
}

struct LiftedChain {
  std::unique_ptr<Image> image;
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  std::unique_ptr<Lifter> lifter;
  uint64_t callees = 0;

  LiftedChain(size_t depth, const LiftOptions &options)
      : image(Image::fromRawBytes(callChain(depth), Base)) {
    lifter = std::make_unique<Lifter>(*image, context, diagnostics, options);
    llvm::Expected<llvm::Function *> root = lifter->liftFunction(Base);
    if (!root) {
      ADD_FAILURE() << llvm::toString(root.takeError());
      return;
    }
    callees = lifter->liftCallees();
  }
};

TEST(BudgetTest, DeepCallChainLiftsWithoutRecursion) {
  // Deep enough that lifting callees by recursion would need a big stack; quick as a worklist.
  constexpr size_t Depth = 1000;
  LiftedChain chain(Depth, LiftOptions{});
  EXPECT_EQ(chain.callees, Depth - 1);
  EXPECT_EQ(chain.lifter->stats().functions, Depth);
  EXPECT_FALSE(llvm::verifyModule(chain.lifter->module(), &llvm::errs()));
}

TEST(BudgetTest, LiftCalleesStopsAtTheFunctionBudget) {
  LiftOptions options;
  options.maxFunctions = 10;
  LiftedChain chain(100, options);
  EXPECT_EQ(chain.lifter->stats().functions, 10u);
  EXPECT_TRUE(hasBudgetWarning(chain.diagnostics, "function budget exhausted"));
  // The callees left over are runtime calls: the module is complete and valid.
  std::unique_ptr<llvm::Module> module = chain.lifter->takeModule();
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
}

TEST(BudgetTest, LiftCalleesStopsAtThePassedDeadline) {
  LiftedChain chain(100, withDeadlinePassed());
  EXPECT_EQ(chain.callees, 0u);
  EXPECT_TRUE(hasBudgetWarning(chain.diagnostics, "lifting callees stopped after 0 functions"));
  std::unique_ptr<llvm::Module> module = chain.lifter->takeModule();
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
}

TEST(BudgetTest, WatchdogFiresAtTwiceTheTimeoutPlusTenSeconds) {
  EXPECT_EQ(watchdogDelay(5).count(), 20000);
  EXPECT_EQ(watchdogDelay(0.5).count(), 11000);
}

TEST(BudgetTest, WatchdogEndsARunThatOverrunsWithExitCode3) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Watchdog watchdog(std::chrono::milliseconds(50));
        std::this_thread::sleep_for(std::chrono::seconds(10));
      },
      testing::ExitedWithCode(WatchdogExitCode), "the watchdog of --timeout ended it");
}

TEST(BudgetTest, DisarmedWatchdogLetsTheRunGoOn) {
  { Watchdog watchdog(std::chrono::milliseconds(50)); }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  SUCCEED();   // still alive
}

} // namespace
