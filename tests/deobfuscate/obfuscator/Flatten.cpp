// Control-flow flattening. The entry keeps its allocas, stores the first block's state and
// jumps to the dispatcher; every other block is a case of the dispatcher's switch on a state
// variable held in a stack slot, and instead of branching it stores the state of its
// successor (a select on the condition for a conditional branch, a chain of selects for a
// switch) and jumps to a latch that goes back to the dispatcher. States are distinct random
// 32-bit numbers, so the compiler writes the dispatcher as a tree of comparisons. Values that
// cross blocks are first demoted to stack slots: no block dominates another any more.
#include "Obfuscator.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Local.h>

#include <map>
#include <set>
#include <vector>

namespace obfuscator {
namespace {

bool flattenable(const llvm::Function &function) {
  for (const llvm::BasicBlock &block : function) {
    const llvm::Instruction *terminator = block.getTerminator();
    if (block.isEHPad() || llvm::isa<llvm::InvokeInst>(terminator) ||
        llvm::isa<llvm::IndirectBrInst>(terminator) || llvm::isa<llvm::CallBrInst>(terminator))
      return false;
  }
  return true;
}

bool usedOutside(const llvm::Instruction &instruction) {
  for (const llvm::User *user : instruction.users()) {
    auto *use = llvm::cast<llvm::Instruction>(user);
    if (use->getParent() != instruction.getParent() || llvm::isa<llvm::PHINode>(use))
      return true;
  }
  return false;
}

/// Phis and values used in other blocks go to stack slots.
void demoteCrossBlockValues(llvm::Function &function) {
  std::vector<llvm::PHINode *> phis;
  for (llvm::BasicBlock &block : function)
    for (llvm::PHINode &phi : block.phis())
      phis.push_back(&phi);
  for (llvm::PHINode *phi : phis)
    llvm::DemotePHIToStack(phi);
  std::vector<llvm::Instruction *> crossing;
  llvm::BasicBlock &entry = function.getEntryBlock();
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : block)
      if (!(llvm::isa<llvm::AllocaInst>(instruction) && &block == &entry) &&
          usedOutside(instruction))
        crossing.push_back(&instruction);
  for (llvm::Instruction *instruction : crossing)
    llvm::DemoteRegToStack(*instruction);
}

} // namespace

bool flattenControlFlow(llvm::Function &function, Random &random) {
  if (function.isDeclaration() || !flattenable(function))
    return false;
  llvm::LLVMContext &context = function.getContext();
  llvm::BasicBlock &entry = function.getEntryBlock();
  llvm::BasicBlock::iterator firstCode = entry.begin();
  while (llvm::isa<llvm::AllocaInst>(*firstCode))
    ++firstCode;
  llvm::BasicBlock *first = entry.splitBasicBlock(firstCode, "first");
  demoteCrossBlockValues(function);

  std::vector<llvm::BasicBlock *> cases;
  for (llvm::BasicBlock &block : function)
    if (&block != &entry)
      cases.push_back(&block);
  if (cases.size() < 2)
    return false;   // one block: nothing to dispatch (the entry split is harmless)

  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  std::map<llvm::BasicBlock *, llvm::ConstantInt *> stateOf;
  std::set<uint32_t> used;
  for (llvm::BasicBlock *block : cases) {
    uint32_t value;
    do
      value = uint32_t(random.next());
    while (!used.insert(value).second);
    stateOf[block] = llvm::ConstantInt::get(context, llvm::APInt(32, value));
  }

  llvm::IRBuilder<> builder(context);
  builder.SetInsertPoint(&entry, entry.getFirstNonPHIOrDbgOrAlloca());
  llvm::AllocaInst *state = builder.CreateAlloca(i32, nullptr, "state");
  entry.getTerminator()->eraseFromParent();
  auto *dispatcher = llvm::BasicBlock::Create(context, "dispatcher", &function, first);
  auto *latch = llvm::BasicBlock::Create(context, "latch", &function);
  auto *unknown = llvm::BasicBlock::Create(context, "unknown.state", &function);
  builder.SetInsertPoint(&entry);
  builder.CreateStore(stateOf[first], state);
  builder.CreateBr(dispatcher);
  builder.SetInsertPoint(dispatcher);
  llvm::SwitchInst *dispatch =
      builder.CreateSwitch(builder.CreateLoad(i32, state, "state.value"), unknown, cases.size());
  for (llvm::BasicBlock *block : cases)
    dispatch->addCase(stateOf[block], block);
  builder.SetInsertPoint(latch);
  builder.CreateBr(dispatcher);
  builder.SetInsertPoint(unknown);
  builder.CreateBr(latch);

  for (llvm::BasicBlock *block : cases) {
    llvm::Instruction *terminator = block->getTerminator();
    builder.SetInsertPoint(terminator);
    llvm::Value *next = nullptr;
    if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator)) {
      next = stateOf[branch->getSuccessor(0)];
      if (branch->isConditional())
        next = builder.CreateSelect(branch->getCondition(), next,
                                    stateOf[branch->getSuccessor(1)]);
    } else if (auto *choice = llvm::dyn_cast<llvm::SwitchInst>(terminator)) {
      next = stateOf[choice->getDefaultDest()];
      for (auto &entryCase : choice->cases())
        next = builder.CreateSelect(
            builder.CreateICmpEQ(choice->getCondition(), entryCase.getCaseValue()),
            stateOf[entryCase.getCaseSuccessor()], next);
    } else {
      continue;   // ret, unreachable: leave the function as before
    }
    builder.CreateStore(next, state);
    builder.CreateBr(latch);
    terminator->eraseFromParent();
  }
  return true;
}

} // namespace obfuscator
