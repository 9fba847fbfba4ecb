#include "Discover/FunctionParts.h"
#include "Discover/Registry.h"

#include <gtest/gtest.h>

using namespace hoist;

namespace {

/// A parent at 0x2000 whose blocks run to 0x2020 and which enters 0x1000 from 0x2008.
DiscoveredFunction parentBranchingTo(uint64_t part, bool conditionally) {
  DiscoveredFunction parent;
  parent.explored.entry = 0x2000;
  MachineBlock head{0x2000, {}, MachineBlock::End::Terminator, 0x200a, {}};
  head.successors = conditionally ? std::vector<uint64_t>{part, 0x200a}
                                  : std::vector<uint64_t>{part};
  parent.explored.blocks[0x2000] = head;
  parent.explored.blocks[0x200a] = {0x200a, {}, MachineBlock::End::Terminator, 0x2020, {}};
  parent.explored.blocks[part] = {part, {}, MachineBlock::End::NoReturnCall, part + 5, {}};
  return parent;
}

} // namespace

TEST(FunctionParts, ColdSymbolOfTheParentIsAPart) {
  DiscoveredFunction parent = parentBranchingTo(0x1000, false);
  PartCandidate part{0x1000, ReasonSymbol | ReasonEhFrame, "work.cold", false, nullptr};
  EXPECT_TRUE(isPartOf(part, parent, llvm::StringRef("work"), {0x1000, 0x2000}));
  part.name = "work.cold.1";
  EXPECT_TRUE(isPartOf(part, parent, llvm::StringRef("work"), {0x1000, 0x2000}));
  part.name = "other.cold";   // another function's name: a function of its own
  EXPECT_FALSE(isPartOf(part, parent, llvm::StringRef("work"), {0x1000, 0x2000}));
  part.name = "work.colder";
  EXPECT_FALSE(isPartOf(part, parent, llvm::StringRef("work"), {0x1000, 0x2000}));
}

TEST(FunctionParts, AnUnwindEntryMidFrameIsEvidence) {
  DiscoveredFunction parent = parentBranchingTo(0x1000, false);
  PartCandidate part{0x1000, ReasonEhFrame, std::nullopt, true, nullptr};
  EXPECT_TRUE(isPartOf(part, parent, std::nullopt, {0x1000, 0x2000}));
  part.continuesFrame = false;   // a jmp to code with a call's stack: a tail call
  EXPECT_FALSE(isPartOf(part, parent, std::nullopt, {0x1000, 0x2000}));
}

TEST(FunctionParts, OnlyConditionalBranchesFromOutsideTheStretchAreEvidence) {
  PartCandidate part{0x1000, ReasonLeavesFunction, std::nullopt, false, nullptr};
  EXPECT_TRUE(isPartOf(part, parentBranchingTo(0x1000, true), std::nullopt, {0x1000, 0x2000}));
  EXPECT_FALSE(isPartOf(part, parentBranchingTo(0x1000, false), std::nullopt, {0x1000, 0x2000}));
}

TEST(FunctionParts, ConditionalBranchesToCodeAfterTheParentAreATailCall) {
  // clang-19's `je close_stdout`: gcc lays its parts out before the functions of .text.
  PartCandidate part{0x3000, ReasonLeavesFunction, std::nullopt, false, nullptr};
  EXPECT_FALSE(isPartOf(part, parentBranchingTo(0x3000, true), std::nullopt, {0x2000, 0x3000}));
}

TEST(FunctionParts, APieceThatOnlyTrapsIsEvidence) {
  DiscoveredFunction parent = parentBranchingTo(0x1000, false);
  DiscoveredFunction asFunction;   // movzx eax, byte [0]; ud2
  asFunction.explored.entry = 0x1000;
  asFunction.explored.blocks[0x1000] = {0x1000, {}, MachineBlock::End::Terminator, 0x100a, {}};
  asFunction.noreturn = true;
  PartCandidate part{0x1000, ReasonLeavesFunction, std::nullopt, false, &asFunction};
  EXPECT_TRUE(isPartOf(part, parent, std::nullopt, {0x1000, 0x2000}));
  asFunction.calls.push_back({});   // it calls what ends it: a function may do that
  EXPECT_FALSE(isPartOf(part, parent, std::nullopt, {0x1000, 0x2000}));
}

TEST(FunctionParts, ACallOrAPointerMakesAFunction) {
  DiscoveredFunction parent = parentBranchingTo(0x1000, true);
  for (uint32_t reason : {ReasonCallTarget, ReasonDataPointer, ReasonCodeReference, ReasonExport,
                          ReasonEntry}) {
    PartCandidate part{0x1000, ReasonEhFrame | reason, std::nullopt, true, nullptr};
    EXPECT_FALSE(isPartOf(part, parent, std::nullopt, {0x1000, 0x2000})) << reason;
  }
}

TEST(FunctionParts, AJumpBackIntoTheParentsStretchIsEvidence) {
  DiscoveredFunction parent = parentBranchingTo(0x1000, false);
  DiscoveredFunction asFunction;
  asFunction.explored.entry = 0x1000;
  asFunction.explored.blocks[0x1000] = {0x1000, {}, MachineBlock::End::Terminator, 0x1008, {}};
  asFunction.tailCalls = {0x200a};   // back into the parent, past its entry
  PartCandidate part{0x1000, ReasonLeavesFunction, std::nullopt, false, &asFunction};
  EXPECT_TRUE(isPartOf(part, parent, std::nullopt, {0x1000, 0x2000}));
  asFunction.tailCalls = {0x2000};   // to the parent's entry: a call of it in tail position
  EXPECT_FALSE(isPartOf(part, parent, std::nullopt, {0x1000, 0x2000}));
}

TEST(FunctionParts, ExtentIsTheRunOfBlocksFromThePart) {
  DiscoveredFunction parent = parentBranchingTo(0x1000, true);
  parent.explored.blocks[0x1005] = {0x1005, {}, MachineBlock::End::Terminator, 0x100c, {}};
  std::vector<CodeRange> parts =
      partExtents(parent.explored, {{0x1000, 0x2000}}, {0x1010, 0x2000});
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].start, 0x1000u);
  EXPECT_EQ(parts[0].size, 0xcu);
}
