// Bogus control flow: a block is split after its phis and allocas; the head branches on an
// opaque predicate (always true, or its negation, always false) to the body or to an altered
// copy of the body that goes where the body goes. The copy's results must be live (values the
// body hands to other blocks go through stack slots, the copy writes its own), or the code
// generator deletes the copy as dead and the branch with it. The predicates use the function's integer
// arguments, passed through an empty inline asm so that the compiler (whose known-bits
// analysis folds some of them at -O2) sees opaque values; they hold for every value by number
// theory: x*(x+1) is even; 7y^2 - 1 is never a square modulo 8; an odd square is 1 modulo 8.
#include "Obfuscator.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/CFG.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <vector>

namespace obfuscator {
namespace {

using llvm::Value;

/// x itself, through `asm("" : "=r"(x) : "0"(x))`: no instruction, no known bits.
Value *opaqueCopy(llvm::IRBuilder<> &b, Value *x) {
  auto *type = llvm::FunctionType::get(x->getType(), {x->getType()}, false);
  return b.CreateCall(llvm::InlineAsm::get(type, "", "=r,0", /*hasSideEffects=*/false), {x});
}

/// a * b with both factors passed through their own opaque copy: LLVM's code generator knows
/// that x*(x+1) is even and what a square is modulo 8, but not of two unrelated values.
Value *opaqueMul(llvm::IRBuilder<> &b, Value *x, Value *y) {
  return b.CreateMul(opaqueCopy(b, x), opaqueCopy(b, y));
}

/// An always-true condition over x and y (same integer type).
Value *opaqueTrue(llvm::IRBuilder<> &b, Value *x, Value *y, unsigned kind) {
  llvm::Type *type = x->getType();
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(type, v); };
  switch (kind) {
  case 0:   // x*(x+1) & 1 == 0
    return b.CreateICmpEQ(b.CreateAnd(opaqueMul(b, x, b.CreateAdd(x, constant(1))), constant(1)),
                          constant(0));
  case 1:   // 7*y*y - 1 != x*x
    return b.CreateICmpNE(b.CreateSub(b.CreateMul(opaqueMul(b, y, y), constant(7)), constant(1)),
                          opaqueMul(b, x, x));
  default: { // (x|1)*(x|1) & 7 == 1
    Value *odd = b.CreateOr(x, constant(1));
    return b.CreateICmpEQ(b.CreateAnd(opaqueMul(b, odd, odd), constant(7)), constant(1));
  }
  }
}

/// Changes the copy so that it computes something else: add <-> sub, and <-> or, xor -> add.
void alter(llvm::BasicBlock &copy) {
  for (llvm::Instruction &instruction : llvm::make_early_inc_range(copy)) {
    auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction);
    if (!binary || !binary->getType()->isIntegerTy())
      continue;
    llvm::Instruction::BinaryOps to;
    switch (binary->getOpcode()) {
    case llvm::Instruction::Add: to = llvm::Instruction::Sub; break;
    case llvm::Instruction::Sub: to = llvm::Instruction::Add; break;
    case llvm::Instruction::And: to = llvm::Instruction::Or; break;
    case llvm::Instruction::Or: to = llvm::Instruction::And; break;
    case llvm::Instruction::Xor: to = llvm::Instruction::Add; break;
    default: continue;
    }
    auto *replacement = llvm::BinaryOperator::Create(to, binary->getOperand(0),
                                                     binary->getOperand(1), "", binary);
    binary->replaceAllUsesWith(replacement);
    binary->eraseFromParent();
  }
}

bool hasAlloca(const llvm::BasicBlock &block) {
  for (const llvm::Instruction &instruction : block)
    if (llvm::isa<llvm::AllocaInst>(instruction))
      return true;
  return false;
}

} // namespace

bool addBogusControlFlow(llvm::Function &function, Random &random) {
  std::vector<Value *> integers;
  for (llvm::Argument &argument : function.args())
    if (argument.getType()->isIntegerTy() && argument.getType()->getIntegerBitWidth() >= 8)
      integers.push_back(&argument);
  if (integers.empty())
    return false;
  std::vector<llvm::BasicBlock *> blocks;
  for (llvm::BasicBlock &block : function)
    if (!block.isEHPad())
      blocks.push_back(&block);
  unsigned added = 0;
  for (llvm::BasicBlock *head : blocks) {
    if (added == 8 || random.below(3) == 0)
      continue;
    llvm::BasicBlock::iterator split = head->begin();
    while (llvm::isa<llvm::PHINode>(*split) || llvm::isa<llvm::AllocaInst>(*split))
      ++split;
    llvm::BasicBlock *body = head->splitBasicBlock(split, head->getName() + ".body");
    if (hasAlloca(*body))
      continue;   // left split, unguarded: a copy would allocate on a path never taken
    std::vector<llvm::Instruction *> escaping;
    for (llvm::Instruction &instruction : *body)
      for (llvm::User *user : instruction.users())
        if (llvm::cast<llvm::Instruction>(user)->getParent() != body) {
          escaping.push_back(&instruction);
          break;
        }
    for (llvm::Instruction *instruction : escaping)
      llvm::DemoteRegToStack(*instruction);
    llvm::ValueToValueMapTy map;
    llvm::BasicBlock *copy = llvm::CloneBasicBlock(body, map, ".bogus", &function);
    for (llvm::Instruction &instruction : *copy)
      llvm::RemapInstruction(&instruction, map,
                             llvm::RF_IgnoreMissingLocals | llvm::RF_NoModuleLevelChanges);
    for (llvm::BasicBlock *successor : llvm::successors(copy))
      for (llvm::PHINode &phi : successor->phis()) {
        llvm::Value *incoming = phi.getIncomingValueForBlock(body);
        if (llvm::Value *mapped = map.lookup(incoming))
          incoming = mapped;
        phi.addIncoming(incoming, copy);
      }
    alter(*copy);

    head->getTerminator()->eraseFromParent();
    llvm::IRBuilder<> builder(head);
    Value *x = integers[random.below(integers.size())];
    Value *y = integers[random.below(integers.size())];
    if (y->getType() != x->getType())
      y = x;
    Value *condition = opaqueTrue(builder, x, y, random.below(3));
    if (random.below(2))
      builder.CreateCondBr(condition, body, copy);
    else
      builder.CreateCondBr(builder.CreateNot(condition), copy, body);
    ++added;
  }
  return added != 0;
}

} // namespace obfuscator
