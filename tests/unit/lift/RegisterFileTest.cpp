// The RegisterFile's definitions are plain pointers (lib/Arch/RegisterFile.h): a trivial phi
// the SSA construction removes, or a value a client replaced (the concolic lifter's local
// simplifier), must still read as what replaced it, never as the removed value.
#include "Arch/RegisterFile.h"
#include "Lift/CallTargets.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <gtest/gtest.h>

#include <optional>

using namespace hoist;

namespace {

struct Fixture {
  llvm::LLVMContext context;
  llvm::Module module{"registers", context};
  llvm::Function *function = declareLiftedFunction(module, 0x1000, liftedFunctionName(0x1000));
  llvm::BasicBlock *entryBB = llvm::BasicBlock::Create(context, "entry", function);
  std::optional<RegisterFile> registers{std::in_place, entryBB, function->getArg(0)};
  llvm::IRBuilder<> ir{context};

  llvm::BasicBlock *block(const char *name) {
    return llvm::BasicBlock::Create(context, name, function);
  }
  /// Whether the function is valid IR once the lift is over: the RegisterFile deletes the
  /// phis it removed (they still hold their operands until then).
  bool validAfterLift() {
    registers.reset();
    return !llvm::verifyFunction(*function, &llvm::errs());
  }
};

TEST(RegisterFile, ReadAfterTrivialPhiRemovalIsTheReplacement) {
  // entry -> header <-> latch; nothing writes rax in the loop, so the header's placeholder phi
  // for rax becomes trivial once the back edge is known, and is removed.
  Fixture f;
  llvm::BasicBlock *headerBB = f.block("header");
  llvm::BasicBlock *latchBB = f.block("latch");
  llvm::BasicBlock *exitBB = f.block("exit");
  RegisterFile::Block *entry = f.registers->entryBlock();
  RegisterFile::Block *header = f.registers->createBlock(headerBB);
  RegisterFile::Block *latch = f.registers->createBlock(latchBB);
  RegisterFile::Block *exit = f.registers->createBlock(exitBB);
  f.registers->addPredecessor(header, entry);
  llvm::Value *atEntry = f.registers->read(entry, Var::RAX);
  llvm::BranchInst::Create(headerBB, f.entryBB);

  llvm::Value *placeholder = f.registers->read(header, Var::RAX);   // header not sealed yet
  ASSERT_TRUE(llvm::isa<llvm::PHINode>(placeholder));
  f.registers->addPredecessor(latch, header);
  f.registers->seal(latch);
  f.registers->addPredecessor(exit, header);
  f.registers->seal(exit);
  f.ir.SetInsertPoint(headerBB);
  f.ir.CreateCondBr(f.ir.getTrue(), latchBB, exitBB);
  f.ir.SetInsertPoint(latchBB);
  f.ir.CreateBr(headerBB);
  f.registers->addPredecessor(header, latch);
  f.registers->seal(header);

  // The placeholder was removed from the IR, and every read now gives the entry's value.
  EXPECT_EQ(llvm::cast<llvm::PHINode>(placeholder)->getParent(), nullptr);
  EXPECT_EQ(f.registers->read(header, Var::RAX), atEntry);
  EXPECT_EQ(f.registers->read(latch, Var::RAX), atEntry);
  EXPECT_EQ(f.registers->read(exit, Var::RAX), atEntry);
  f.ir.SetInsertPoint(exitBB);
  f.ir.CreateRetVoid();
  EXPECT_TRUE(f.validAfterLift());
}

TEST(RegisterFile, ClientReplacementIsFollowedByDefinitionsAndFlags) {
  Fixture f;
  RegisterFile::Block *entry = f.registers->entryBlock();
  llvm::Value *rax = f.registers->read(entry, Var::RAX);
  llvm::Value *rbx = f.registers->read(entry, Var::RBX);
  f.ir.SetInsertPoint(f.entryBB);
  // `sub rax, rbx` whose result a simplifier then finds equal to an earlier value (here 0).
  llvm::Value *difference = f.ir.CreateSub(rax, rbx);
  f.registers->write(entry, Var::RAX, difference);
  f.registers->writeFlags(entry, FlagThunk{FlagOp::Sub, rax, rbx, difference, nullptr});
  llvm::Constant *zero = f.ir.getInt64(0);
  difference->replaceAllUsesWith(zero);
  f.registers->valueReplaced(difference, zero);

  EXPECT_EQ(f.registers->read(entry, Var::RAX), zero);
  // ZF is computed from the thunk's result: the replacement, so it folds to true.
  EXPECT_EQ(f.registers->read(entry, Var::ZF), f.ir.getTrue());
  f.ir.SetInsertPoint(f.entryBB);
  f.ir.CreateRetVoid();
  EXPECT_TRUE(f.validAfterLift());
}

} // namespace
