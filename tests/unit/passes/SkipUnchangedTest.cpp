// hoist::SkipUnchangedPass: a pass is skipped on a function it left unchanged while nothing
// changed that function since, and runs again once anything did.
#include "Passes/SkipUnchanged.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

/// Counts its runs per function and reports a change while `changesLeft` is positive.
struct ScriptedPass : llvm::PassInfoMixin<ScriptedPass> {
  unsigned *runs;
  int *changesLeft;
  llvm::PreservedAnalyses run(llvm::Function &, llvm::FunctionAnalysisManager &) {
    ++*runs;
    if (*changesLeft > 0) {
      --*changesLeft;
      return llvm::PreservedAnalyses::none();
    }
    return llvm::PreservedAnalyses::all();
  }
};

/// A second pass type, so that it gets its own slot.
struct OtherPass : ScriptedPass {
  static llvm::StringRef name() { return "OtherPass"; }
};

struct SkipUnchanged : ::testing::Test {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  llvm::FunctionAnalysisManager analyses;
  std::shared_ptr<FunctionVersions> versions = std::make_shared<FunctionVersions>();

  void SetUp() override {
    llvm::SMDiagnostic error;
    module = llvm::parseAssemblyString("define void @f() {\n  ret void\n}\n"
                                       "define void @g() {\n  ret void\n}\n",
                                       error, context);
    ASSERT_TRUE(module);
    llvm::PassBuilder builder;
    builder.registerFunctionAnalyses(analyses);
  }
  llvm::Function &function(llvm::StringRef name) { return *module->getFunction(name); }
};

TEST_F(SkipUnchanged, PassThatChangedNothingIsSkippedUntilSomethingChanges) {
  unsigned watcherRuns = 0, changerRuns = 0;
  int watcherChanges = 0, changerChanges = 1;
  SkipUnchangedPass<ScriptedPass> watcher({{}, &watcherRuns, &watcherChanges}, versions);
  SkipUnchangedPass<OtherPass> changer({{{}, &changerRuns, &changerChanges}}, versions);
  llvm::Function &f = function("f");

  watcher.run(f, analyses);
  watcher.run(f, analyses);
  EXPECT_EQ(watcherRuns, 1u) << "ran again on the version it left unchanged";

  changer.run(f, analyses);   // changes f
  watcher.run(f, analyses);
  EXPECT_EQ(watcherRuns, 2u) << "skipped although f changed";

  changer.run(f, analyses);   // finds nothing now: f is the same version
  watcher.run(f, analyses);
  EXPECT_EQ(watcherRuns, 2u);
  EXPECT_EQ(changerRuns, 2u);
}

TEST_F(SkipUnchanged, PassThatChangedRunsAgain) {
  unsigned runs = 0;
  int changes = 1;
  SkipUnchangedPass<ScriptedPass> pass({{}, &runs, &changes}, versions);
  pass.run(function("f"), analyses);   // changes
  pass.run(function("f"), analyses);   // its own output may hold more: runs, finds nothing
  pass.run(function("f"), analyses);   // skipped
  EXPECT_EQ(runs, 2u);
}

TEST_F(SkipUnchanged, PassThatSettlesItselfIsNotRunOnItsOwnOutput) {
  unsigned settlerRuns = 0, otherRuns = 0;
  int settlerChanges = 2, otherChanges = 1;
  SkipUnchangedPass<ScriptedPass> settler({{}, &settlerRuns, &settlerChanges}, versions,
                                          /*alwaysRun=*/false, /*settlesItself=*/true);
  SkipUnchangedPass<OtherPass> other({{{}, &otherRuns, &otherChanges}}, versions);
  llvm::Function &f = function("f");
  settler.run(f, analyses);   // changes f
  settler.run(f, analyses);   // skipped: f is its own output
  EXPECT_EQ(settlerRuns, 1u);
  other.run(f, analyses);     // changes f
  settler.run(f, analyses);   // runs on the other pass's output
  EXPECT_EQ(settlerRuns, 2u);
}

TEST_F(SkipUnchanged, VersionsAreKeptPerFunction) {
  unsigned runs = 0;
  int changes = 0;
  SkipUnchangedPass<ScriptedPass> pass({{}, &runs, &changes}, versions);
  pass.run(function("f"), analyses);
  pass.run(function("g"), analyses);
  pass.run(function("f"), analyses);
  EXPECT_EQ(runs, 2u);
}

TEST_F(SkipUnchanged, TheSamePassInAnotherRoundSharesWhatItFound) {
  unsigned runs = 0;
  int changes = 0;
  versions->startRound();
  SkipUnchangedPass<ScriptedPass> first({{}, &runs, &changes}, versions);
  versions->startRound();
  SkipUnchangedPass<ScriptedPass> later({{}, &runs, &changes}, versions);
  first.run(function("f"), analyses);
  later.run(function("f"), analyses);
  EXPECT_EQ(runs, 1u);
}

TEST_F(SkipUnchanged, ForgetAllRunsEverythingAgain) {
  unsigned runs = 0;
  int changes = 0;
  SkipUnchangedPass<ScriptedPass> pass({{}, &runs, &changes}, versions);
  pass.run(function("f"), analyses);
  versions->forgetAll();   // something outside the tracked passes changed the module
  pass.run(function("f"), analyses);
  EXPECT_EQ(runs, 2u);
}

TEST_F(SkipUnchanged, AlwaysRunPassRunsAndItsChangesCount) {
  unsigned watcherRuns = 0, callerRuns = 0;
  int watcherChanges = 0, callerChanges = 1;
  SkipUnchangedPass<ScriptedPass> watcher({{}, &watcherRuns, &watcherChanges}, versions);
  SkipUnchangedPass<OtherPass> caller({{{}, &callerRuns, &callerChanges}}, versions,
                                      /*alwaysRun=*/true);
  llvm::Function &f = function("f");
  caller.run(f, analyses);   // changes f
  watcher.run(f, analyses);
  caller.run(f, analyses);   // runs although it found nothing before on this version
  caller.run(f, analyses);
  watcher.run(f, analyses);  // skipped: the caller's pass changed nothing more
  EXPECT_EQ(callerRuns, 3u);
  EXPECT_EQ(watcherRuns, 1u);
}

TEST_F(SkipUnchanged, ActivityIsCountedPerRound) {
  unsigned runs = 0;
  int changes = 1;
  SkipUnchangedPass<ScriptedPass> pass({{}, &runs, &changes}, versions);
  versions->startCounting(1);
  pass.run(function("f"), analyses);   // changes
  versions->startCounting(2);
  pass.run(function("f"), analyses);   // finds nothing
  pass.run(function("f"), analyses);   // skipped
  std::vector<PassActivity> activity = versions->activity();
  ASSERT_EQ(activity.size(), 2u);
  EXPECT_EQ(activity[0].round, 1u);
  EXPECT_EQ(activity[0].ran, 1u);
  EXPECT_EQ(activity[0].changed, 1u);
  EXPECT_EQ(activity[1].round, 2u);
  EXPECT_EQ(activity[1].ran, 1u);
  EXPECT_EQ(activity[1].changed, 0u);
  EXPECT_EQ(activity[1].skipped, 1u);
  EXPECT_NE(activity[1].pass.find("ScriptedPass#0"), std::string::npos) << activity[1].pass;
}

} // namespace
