// Code that reaches the two highest addresses, which llvm::DenseMap reserves as keys
// (InstructionCache::isReservedAddress): a jump or call to -1 or -2, and code that runs into
// the end of the address space. fuzz_pipeline found such a call: a build with assertions (the
// sanitizer build, which runs tests/fuzz/regressions/pipeline/) aborted in DenseMap, a release
// build went on with undefined behaviour, which these tests cannot see; they check the rule.
#include "Discover/FunctionExplorer.h"
#include "Discover/InstructionCache.h"
#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Verifier.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

constexpr uint64_t Last = ~uint64_t(0);

/// Discovers and lifts everything from `base`, as the fuzz target does; the module verifies.
void liftEverything(const std::vector<uint8_t> &code, uint64_t base) {
  std::unique_ptr<Image> image = Image::fromRawBytes(code, base);
  ASSERT_TRUE(image);
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  Lifter lifter(*image, context, diagnostics);
  for (uint64_t entry : lifter.discover({base}, /*all=*/true))
    if (llvm::Expected<llvm::Function *> function = lifter.liftFunction(entry); !function)
      llvm::consumeError(function.takeError());
  lifter.liftCallees();
  EXPECT_FALSE(llvm::verifyModule(*lifter.takeModule(), &llvm::errs()));
}

TEST(AddressSpaceEnd, TheTwoHighestAddressesAreNeverCode) {
  EXPECT_TRUE(InstructionCache::isReservedAddress(Last));
  EXPECT_TRUE(InstructionCache::isReservedAddress(Last - 1));
  EXPECT_FALSE(InstructionCache::isReservedAddress(Last - 2));
  // Sixteen nops at the very top: the first fourteen are code, the last two are not.
  std::vector<uint8_t> nops(16, 0x90);
  std::unique_ptr<Image> image = Image::fromRawBytes(nops, Last - 15);
  ASSERT_TRUE(image);
  InstructionCache cache(*image);
  EXPECT_TRUE(cache.at(Last - 2));
  EXPECT_EQ(cache.at(Last - 1), nullptr);
  EXPECT_EQ(cache.at(Last), nullptr);
}

TEST(AddressSpaceEnd, CodeRunningIntoTheEndStopsBeforeIt) {
  std::vector<uint8_t> nops(16, 0x90);
  std::unique_ptr<Image> image = Image::fromRawBytes(nops, Last - 15);
  ASSERT_TRUE(image);
  InstructionCache cache(*image);
  DiagnosticSink diagnostics;
  ExploredFunction function = exploreFunction(cache, Last - 15, LiftOptions{}, diagnostics, {});
  ASSERT_EQ(function.blocks.size(), 1u);
  EXPECT_EQ(function.blocks.begin()->second.endAddress, Last - 1);
  liftEverything(nops, Last - 15);
}

TEST(AddressSpaceEnd, JumpsAndCallsToTheEndLiftAndVerify) {
  // mov rax, -1; call rax; mov rax, -2; jmp rax
  liftEverything({0x48, 0xc7, 0xc0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xd0, 0x48, 0xc7, 0xc0, 0xfe,
                  0xff, 0xff, 0xff, 0xff, 0xe0},
                 0x1000);
  // jmp rel32 to -1 from the top page
  liftEverything({0xe9, 0xfa, 0xff, 0xff, 0xff, 0x90, 0x90, 0x90}, Last - 7);
}

} // namespace
