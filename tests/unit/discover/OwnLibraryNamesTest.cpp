// Only imports are matched to library names: a function the program defines is analysed as
// code, whatever it is called. own_library_names.c defines an `exit` and an `error` that
// return; the calls after them must be found.
#include "Discover/ProgramDiscovery.h"
#include "Support/Diagnostics.h"
#include "hoist/Image.h"

#include <gtest/gtest.h>

using namespace hoist;

TEST(OwnLibraryNames, AProgramsOwnExitAndErrorAreAnalysedAsCode) {
  auto image = Image::load(HOIST_OWN_LIBRARY_NAMES);
  ASSERT_TRUE(static_cast<bool>(image)) << llvm::toString(image.takeError());
  std::optional<uint64_t> main = (*image)->lookupSymbol("main");
  std::optional<uint64_t> exit = (*image)->lookupSymbol("exit");
  std::optional<uint64_t> error = (*image)->lookupSymbol("error");
  std::optional<uint64_t> afterExit = (*image)->lookupSymbol("after_exit");
  std::optional<uint64_t> afterError = (*image)->lookupSymbol("after_error");
  ASSERT_TRUE(main && exit && error && afterExit && afterError);

  DiagnosticSink diagnostics;
  ProgramCfg cfg = discoverProgram(**image, {{*main}, false}, LiftOptions{}, diagnostics);
  EXPECT_FALSE(cfg.noreturnCallees.count(*exit));
  EXPECT_FALSE(cfg.noreturnWhenStatusNonzero.count(*error));
  ASSERT_TRUE(cfg.functions.count(*main));
  std::set<uint64_t> called;
  for (const CallSite &call : cfg.functions.at(*main).calls) {
    EXPECT_FALSE(call.noreturn) << std::hex << call.at;
    if (call.target)
      called.insert(*call.target);
  }
  EXPECT_TRUE(called.count(*afterExit));
  EXPECT_TRUE(called.count(*afterError));
  EXPECT_FALSE(cfg.functions.at(*main).noreturn);
}
