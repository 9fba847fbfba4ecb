// LaneFlow: which bytes of an XMM argument a function really reads, on the shapes SROA leaves.
#include "Brighten/LaneFlow.h"

#include "ParseModule.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

/// bytesRead of the first argument of @f in `text`, calls of @sink ignored.
std::optional<ByteSet> bytesReadOf(const char *text) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = hoist::test::parseModule(text, context);
  if (!module)
    return std::nullopt;
  llvm::Function &function = *module->getFunction("f");
  llvm::DominatorTree dominators(function);
  llvm::AssumptionCache assumptions(function);
  llvm::DemandedBits demanded(function, assumptions, dominators);
  return bytesRead(*function.getArg(0), demanded, [](const llvm::User *user) {
    const auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    return call && call->getCalledFunction()->getName() == "sink";
  });
}

ByteSet bytes(std::initializer_list<unsigned> indices) {
  ByteSet set;
  for (unsigned index : indices)
    set.set(index);
  return set;
}

TEST(LaneFlow, FloatInTheLowLaneReadsFourBytes) {
  std::optional<ByteSet> read = bytesReadOf(R"(
    declare void @use(float)
    define void @f(i128 %x) {
      %v = bitcast i128 %x to <4 x float>
      %e = extractelement <4 x float> %v, i64 0
      %r = fadd float %e, 1.0
      call void @use(float %r)
      ret void
    })");
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, bytes({0, 1, 2, 3}));
}

TEST(LaneFlow, LanesAShuffleDropsAreNotRead) {
  // The register in the upper half of a YMM slot, the lower half kept: nothing read.
  std::optional<ByteSet> read = bytesReadOf(R"(
    declare void @use(<2 x i64>)
    define void @f(i128 %x) {
      %slot = insertelement <2 x i128> <i128 0, i128 poison>, i128 %x, i64 1
      %q = bitcast <2 x i128> %slot to <4 x i64>
      %low = shufflevector <4 x i64> %q, <4 x i64> poison, <2 x i32> <i32 0, i32 1>
      call void @use(<2 x i64> %low)
      ret void
    })");
  ASSERT_TRUE(read);
  EXPECT_TRUE(read->none());
}

TEST(LaneFlow, PassingThroughToTheSinkIsNotARead) {
  std::optional<ByteSet> read = bytesReadOf(R"(
    declare void @sink(i128)
    define void @f(i128 %x) {
      call void @sink(i128 %x)
      ret void
    })");
  ASSERT_TRUE(read);
  EXPECT_TRUE(read->none());
}

TEST(LaneFlow, ArithmeticShiftKeepsOnlyTheTopByteOfEachLane) {
  // punpcklwd then psrad 24: the other bytes of each lane do not matter.
  std::optional<ByteSet> read = bytesReadOf(R"(
    declare void @use(<4 x i32>)
    define void @f(i128 %x) {
      %v = bitcast i128 %x to <4 x i32>
      %s = ashr <4 x i32> %v, <i32 24, i32 24, i32 24, i32 24>
      call void @use(<4 x i32> %s)
      ret void
    })");
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, bytes({3, 7, 11, 15}));
}

TEST(LaneFlow, AStoreOfTheScalarReadsAllOfIt) {
  std::optional<ByteSet> read = bytesReadOf(R"(
    define void @f(i128 %x, ptr %p) {
      store i128 %x, ptr %p
      ret void
    })");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->count(), 16u);
}

TEST(LaneFlow, AVectorStoreIsNotFollowed) {
  // Which lanes memory keeps is not known here: the caller falls back to its own rules.
  std::optional<ByteSet> read = bytesReadOf(R"(
    define void @f(i128 %x, ptr %p) {
      %v = bitcast i128 %x to <2 x i64>
      store <2 x i64> %v, ptr %p
      ret void
    })");
  EXPECT_FALSE(read);
}

} // namespace

TEST(LaneFlow, BroadcastOfLaneZeroReadsOnlyLaneZero) {
  // shufps $0 then mulps (a vector scaled by a float argument): every lane holds lane 0's
  // bytes, so only the float is read.
  std::optional<ByteSet> read = bytesReadOf(R"(
    declare void @use(<4 x float>)
    define void @f(i128 %x, <4 x float> %y) {
      %v = bitcast i128 %x to <4 x float>
      %b = shufflevector <4 x float> %v, <4 x float> poison, <4 x i32> zeroinitializer
      %r = fmul <4 x float> %b, %y
      call void @use(<4 x float> %r)
      ret void
    })");
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, bytes({0, 1, 2, 3}));
}

TEST(LaneFlow, VectorArithmeticReadsEveryLane) {
  std::optional<ByteSet> read = bytesReadOf(R"(
    declare void @use(<2 x double>)
    define void @f(i128 %x, <2 x double> %y) {
      %v = bitcast i128 %x to <2 x double>
      %r = fadd <2 x double> %v, %y
      call void @use(<2 x double> %r)
      ret void
    })");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->count(), 16u);
}
