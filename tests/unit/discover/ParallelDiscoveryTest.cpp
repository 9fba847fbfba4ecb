// Whole-program discovery on several threads (LiftOptions::discoveryThreads, `hoist lift --all
// -j N`) must find exactly what it finds on one: the same functions with the same blocks, calls
// and noreturn verdicts, the same registry, the same diagnostics in the same order.
#include "Discover/ProgramDiscovery.h"
#include "Support/Diagnostics.h"
#include "hoist/Image.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

using namespace hoist;

namespace {

/// A system binary with a few hundred functions, unwind tables, jump tables and noreturn calls.
constexpr const char *Binary = "/usr/bin/ls";

/// Everything discovery found, as text, so that a difference shows where it is.
std::string describe(const ProgramCfg &cfg, const DiagnosticSink &diagnostics) {
  std::ostringstream out;
  out << "rounds " << cfg.rounds << " exhausted " << cfg.budgetExhausted << "\n";
  for (const auto &[address, reasons] : cfg.registry.all())
    out << "reg " << address << " " << reasons << "\n";
  for (uint64_t callee : cfg.noreturnCallees)
    out << "noreturn " << callee << "\n";
  for (const auto &[entry, function] : cfg.functions) {
    out << "fn " << entry << " noreturn " << function.noreturn << " rounds " << function.rounds
        << " tables " << function.explored.jumpTables.size() << " unresolved "
        << function.unresolvedJumps.size() << "\n";
    for (const auto &[start, block] : function.explored.blocks) {
      out << " block " << start << "-" << block.endAddress << " end "
          << static_cast<int>(block.end) << " ->";
      for (uint64_t successor : block.successors)
        out << " " << successor;
      out << "\n";
    }
    for (const CallSite &call : function.calls)
      out << " call " << call.at << " " << call.target.value_or(0) << " " << call.import << " "
          << call.noreturn << "\n";
    for (uint64_t target : function.tailCalls)
      out << " tail " << target << "\n";
  }
  for (const Diagnostic &d : diagnostics.all())
    out << "diag " << d.code << " " << d.address.value_or(0) << " " << d.message << "\n";
  return out.str();
}

std::string discover(const Image &image, LiftOptions options, unsigned threads) {
  options.discoveryThreads = threads;
  DiagnosticSink diagnostics;
  ProgramDiscoveryRequest request;
  request.all = true;
  ProgramCfg cfg = discoverProgram(image, request, options, diagnostics);
  EXPECT_GT(cfg.functions.size(), 1u);
  return describe(cfg, diagnostics);
}

class ParallelDiscoveryTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!std::filesystem::exists(Binary))
      GTEST_SKIP() << Binary << " is not installed";
    auto loaded = Image::load(Binary);
    ASSERT_TRUE(static_cast<bool>(loaded)) << llvm::toString(loaded.takeError());
    image = std::move(*loaded);
  }
  std::unique_ptr<Image> image;
};

TEST_F(ParallelDiscoveryTest, ThreadsFindWhatOneThreadFinds) {
  std::string serial = discover(*image, LiftOptions{}, 1);
  EXPECT_EQ(discover(*image, LiftOptions{}, 2), serial);
  EXPECT_EQ(discover(*image, LiftOptions{}, 3), serial);
}

TEST_F(ParallelDiscoveryTest, ThreadsStopAtTheSameFunctionBudget) {
  LiftOptions options;
  options.maxFunctions = 50;
  std::string serial = discover(*image, options, 1);
  EXPECT_NE(serial.find("budget-exhausted"), std::string::npos);
  EXPECT_EQ(discover(*image, options, 2), serial);
}

} // namespace
