// Merging block instances at joins (lib/Deobf/Concolic/JoinMerging.h): which memory bytes
// keep an instance from standing for an arrival, and whether the lifting from it reads them.
#include "Deobf/Concolic/ConcreteMemory.h"
#include "Deobf/Concolic/JoinMerging.h"

#include <gtest/gtest.h>

#include <llvm/IR/DataLayout.h>

namespace hoist {
namespace {

MemoryByte constantByte(uint8_t value) {
  MemoryByte byte;
  byte.kind = MemoryByte::Kind::Constant;
  byte.byte = value;
  return byte;
}

/// Instances 0 -> 1 -> 2 (edges taken at the given log positions), each knowing stack byte -8.
struct Chain {
  Context context;
  std::array<MemoryAccesses, 3> accesses;
  std::array<std::vector<InstanceEdge>, 3> edges;
  std::array<bool, 3> lifted{true, true, true};
  std::array<Context, 3> contexts;

  Chain() {
    context.memory.stack[-8] = constantByte(1);
    contexts.fill(context);
  }
  void link(size_t from, size_t to) { edges[from].push_back({to, accesses[from].now()}); }
  JoinNode node(size_t index) const {
    return JoinNode{&contexts[index], &accesses[index], &edges[index], lifted[index]};
  }
  bool mayBeRead(const ContextDifference &difference, uint64_t budget = 100) const {
    return differenceMayBeRead(0, difference, [&](size_t i) { return node(i); }, budget);
  }
};

ContextDifference stackByte(int64_t offset) { return ContextDifference{{offset}, {}}; }

TEST(JoinMerging, ReadAfterWriteInTheInstanceIsNotExposed) {
  MemoryAccesses log;
  log.wroteStack(-8);
  log.readStack(-8);
  log.readStack(-16);
  EXPECT_FALSE(log.readsStack(-8));
  EXPECT_TRUE(log.readsStack(-16));
  EXPECT_TRUE(log.wroteStackBefore(-8, log.now()));
  EXPECT_FALSE(log.wroteStackBefore(-8, 0));
}

TEST(JoinMerging, WritesInOneArmOfAConditionalAreNotDefinite) {
  MemoryAccesses log;
  MemoryAccesses::Writes before = log.writes();
  log.wroteStack(-8);   // the `then` arm
  log.restoreWrites(std::move(before));
  log.readStack(-8);    // after the join: may read the arrival's value
  EXPECT_TRUE(log.readsStack(-8));
}

TEST(JoinMerging, ByteReadDownstreamIsLive) {
  Chain chain;
  chain.link(0, 1);
  chain.link(1, 2);
  chain.accesses[2].readStack(-8);
  EXPECT_TRUE(chain.mayBeRead(stackByte(-8)));
  EXPECT_FALSE(chain.mayBeRead(stackByte(-16)));
}

TEST(JoinMerging, ByteOverwrittenBeforeTheEdgeIsDead) {
  Chain chain;
  chain.link(0, 1);
  chain.accesses[1].wroteStack(-8);
  chain.link(1, 2);
  chain.accesses[2].readStack(-8);
  EXPECT_FALSE(chain.mayBeRead(stackByte(-8)));
}

TEST(JoinMerging, EdgeTakenBeforeTheWriteCarriesTheByte) {
  Chain chain;
  chain.link(0, 1);
  chain.link(1, 2);                  // a branch out of instance 1 first,
  chain.accesses[1].wroteStack(-8);  // then the store on the fall-through path
  chain.accesses[2].readStack(-8);
  EXPECT_TRUE(chain.mayBeRead(stackByte(-8)));
}

TEST(JoinMerging, SuccessorThatForgotTheByteEndsTheSearch) {
  Chain chain;
  chain.link(0, 1);
  chain.link(1, 2);
  chain.contexts[2].memory.stack.clear();   // instance 2 loads it from memory instead
  chain.accesses[2].readStack(-8);
  EXPECT_FALSE(chain.mayBeRead(stackByte(-8)));
}

TEST(JoinMerging, UnfinishedInstanceOrNoBudgetMeansLive) {
  Chain chain;
  chain.link(0, 1);
  chain.lifted[1] = false;
  EXPECT_TRUE(chain.mayBeRead(stackByte(-8)));
  chain.lifted[1] = true;
  EXPECT_FALSE(chain.mayBeRead(stackByte(-8)));
  EXPECT_TRUE(chain.mayBeRead(stackByte(-8), 1));
}

TEST(JoinMerging, CycleTerminates) {
  Chain chain;
  chain.link(0, 1);
  chain.link(1, 0);
  EXPECT_FALSE(chain.mayBeRead(stackByte(-8)));
}

TEST(JoinMerging, OnlyMemoryBytesMayDiffer) {
  const uint8_t code[] = {0xc3};
  std::unique_ptr<Image> image = Image::fromRawBytes(code, 0x1000);
  DeobfuscateOptions options;
  llvm::DataLayout layout("e-m:e-i64:64-n8:16:32:64-S128");
  UnwrittenData unwritten(*image);
  ConcreteMemory memory(*image, options, layout, unwritten);
  Context existing, arrival;
  existing.memory.stack[-8] = constantByte(1);
  arrival.memory.stack[-8] = constantByte(2);
  arrival.memory.stack[-16] = constantByte(3);   // only the arrival knows it: covered
  std::optional<ContextDifference> difference = memoryDifference(existing, arrival, memory);
  ASSERT_TRUE(difference);
  EXPECT_EQ(difference->stack, std::vector<int64_t>{-8});
  existing.gprs[0] = AbstractValue::constant(1);
  EXPECT_FALSE(memoryDifference(existing, arrival, memory));
  existing.gprs[0] = AbstractValue{};   // unknown to the instance: any arrival's value does
  EXPECT_TRUE(memoryDifference(existing, arrival, memory));
  arrival.memory.stack[-8].kind = MemoryByte::Kind::StackPointer;
  EXPECT_FALSE(memoryDifference(existing, arrival, memory));
}

} // namespace
} // namespace hoist
