#include "Discover/Registry.h"

#include <gtest/gtest.h>

using namespace hoist;

TEST(Registry, ReasonsAccumulateOnceAndDriveRounds) {
  JumpTargetRegistry registry;
  EXPECT_TRUE(registry.add(0x2000, ReasonSymbol));
  EXPECT_TRUE(registry.add(0x1000, ReasonEhFrame));
  EXPECT_FALSE(registry.add(0x2000, ReasonSymbol));   // known already: no change
  EXPECT_EQ(registry.takeChanged(), (std::vector<uint64_t>{0x1000, 0x2000}));
  EXPECT_FALSE(registry.hasChanges());
  EXPECT_TRUE(registry.add(0x2000, ReasonCallTarget));   // a new reason is a change
  EXPECT_EQ(registry.takeChanged(), (std::vector<uint64_t>{0x2000}));
  EXPECT_EQ(registry.reasons(0x2000), uint32_t(ReasonSymbol | ReasonCallTarget));
  EXPECT_EQ(reasonNames(registry.reasons(0x2000)), (std::vector<std::string>{"symbol", "call"}));
}

TEST(Registry, JumpTargetsAreNotFunctionStarts) {
  JumpTargetRegistry registry;
  registry.add(0x1000, ReasonJumpTable);
  registry.add(0x1010, ReasonTailCall);
  registry.add(0x1020, ReasonEntry);
  EXPECT_FALSE(registry.isFunctionStart(0x1000));
  EXPECT_FALSE(registry.isFunctionStart(0x1010));
  EXPECT_EQ(registry.functionStarts(), (std::set<uint64_t>{0x1020}));
}
