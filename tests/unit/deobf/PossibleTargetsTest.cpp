// The values a symbolic jump target, load address or dispatcher state can take
// (lib/Deobf/Concolic/PossibleTargets.h), on IR as the concolic lifter builds it.
#include "Deobf/Concolic/PossibleTargets.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <gtest/gtest.h>

namespace hoist {
namespace {

struct Fixture {
  llvm::LLVMContext context;
  llvm::Module module{"m", context};
  llvm::Function *function = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                              {llvm::Type::getInt64Ty(context), llvm::Type::getInt64Ty(context)},
                              false),
      llvm::Function::ExternalLinkage, "f", module);
  llvm::BasicBlock *entry = llvm::BasicBlock::Create(context, "entry", function);
  llvm::IRBuilder<> ir{entry};
  llvm::Value *x = function->getArg(0);
  llvm::Value *y = function->getArg(1);
};

using Values = std::vector<uint64_t>;

TEST(PossibleTargets, SelectOfConstantsThroughATableIndex) {
  Fixture f;
  // A jump table's slot: base + (cond ? 5 : 2) * 8.
  llvm::Value *state = f.ir.CreateSelect(f.ir.CreateICmpSLT(f.x, f.y), f.ir.getInt64(5),
                                         f.ir.getInt64(2));
  llvm::Value *slot = f.ir.CreateAdd(f.ir.CreateShl(state, 3), f.ir.getInt64(0x4000));
  EXPECT_EQ(possibleTargets(slot), (Values{0x4010, 0x4028}));
}

TEST(PossibleTargets, SetlDoubledByLea) {
  Fixture f;
  // setl dl (rdx's upper bytes kept), movzx edx, dl, lea edx, [rdx + rdx + 6], as gcc -O2
  // computes a flattened dispatcher's next state.
  llvm::Value *low = f.ir.CreateZExt(f.ir.CreateICmpSLT(f.x, f.y), f.ir.getInt64Ty());
  llvm::Value *rdx = f.ir.CreateOr(f.ir.CreateAnd(f.x, f.ir.getInt64(-256)), low);
  llvm::Value *dl = f.ir.CreateZExt(f.ir.CreateTrunc(rdx, f.ir.getInt8Ty()), f.ir.getInt32Ty());
  llvm::Value *edx = f.ir.CreateAdd(f.ir.CreateAdd(dl, dl), f.ir.getInt32(6));
  EXPECT_EQ(possibleTargets(f.ir.CreateZExt(edx, f.ir.getInt64Ty())), (Values{6, 8}));
  // All 64 bits of rdx depend on x: no few values.
  EXPECT_EQ(possibleTargets(rdx), std::nullopt);
}

TEST(PossibleTargets, OneConditionUsedTwiceIsOneChoice) {
  Fixture f;
  // setle, then lea eax, [rdx + rdx * 2 + base]: 0 or 3 above the base, never 1 or 2.
  llvm::Value *c = f.ir.CreateZExt(f.ir.CreateICmpSLE(f.x, f.y), f.ir.getInt64Ty());
  llvm::Value *state =
      f.ir.CreateAdd(f.ir.CreateAdd(c, f.ir.CreateMul(c, f.ir.getInt64(2))), f.ir.getInt64(100));
  EXPECT_EQ(possibleTargets(state, 2), (Values{100, 103}));
}

TEST(PossibleTargets, ComparisonOfAChoiceIsDecided) {
  Fixture f;
  // A dispatcher's range check of an index that is one of two states: always in range.
  llvm::Value *state = f.ir.CreateSelect(f.ir.CreateICmpSLT(f.x, f.y), f.ir.getInt32(24117),
                                         f.ir.getInt32(24122));
  llvm::Value *outOfRange = f.ir.CreateICmpUGT(f.ir.CreateSub(state, f.ir.getInt32(24110)),
                                               f.ir.getInt32(14));
  EXPECT_EQ(possibleTargets(outOfRange, 2), (Values{0}));
}

TEST(PossibleTargets, ACounterIsNotItsStart) {
  Fixture f;
  // i = phi [0, entry], [i + 1, loop]: a cycle through arithmetic takes values the walk
  // cannot list (not just the start, 0).
  llvm::BasicBlock *loop = llvm::BasicBlock::Create(f.context, "loop", f.function);
  f.ir.CreateBr(loop);
  f.ir.SetInsertPoint(loop);
  llvm::PHINode *counter = f.ir.CreatePHI(f.ir.getInt64Ty(), 2);
  llvm::Value *next = f.ir.CreateAdd(counter, f.ir.getInt64(1));
  counter->addIncoming(f.ir.getInt64(0), f.entry);
  counter->addIncoming(next, loop);
  f.ir.CreateBr(loop);
  EXPECT_EQ(possibleTargets(counter), std::nullopt);
  // A phi cycle through phis alone (a value passed around a loop) adds nothing of its own.
  llvm::BasicBlock *other = llvm::BasicBlock::Create(f.context, "other", f.function);
  f.ir.SetInsertPoint(other);
  llvm::PHINode *carried = f.ir.CreatePHI(f.ir.getInt64Ty(), 2);
  carried->addIncoming(f.ir.getInt64(7), f.entry);
  carried->addIncoming(carried, other);
  bool throughPhi = false;
  EXPECT_EQ(possibleTargets(carried, 64, &throughPhi), (Values{7}));
  EXPECT_TRUE(throughPhi);
}

} // namespace
} // namespace hoist
