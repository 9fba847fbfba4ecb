#include "Translate/GuestAddresses.h"

#include "Translate/StatePointers.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Local.h>

namespace hoist {
namespace {

/// An address as root + offset. The root is an integer (a guest address, reached through the
/// null memory base), a pointer, or absent (a constant address). `elsewhere` says whether a
/// step of the computation sits outside the block of the access, which is what code
/// generation cannot fold.
struct RootAndOffset {
  llvm::Value *root = nullptr;
  bool integerRoot = false;
  uint64_t offset = 0; // wraps, as the adds and GEPs it replaces do
  bool elsewhere = false;
};

/// Long chains are not what the optimizer leaves; the limit keeps the walk linear.
constexpr unsigned MaxSteps = 16;

bool definedElsewhere(const llvm::Value *value, const llvm::BasicBlock *block) {
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  return instruction && instruction->getParent() != block;
}

RootAndOffset decomposeInteger(llvm::Value *value, const llvm::BasicBlock *block, unsigned steps) {
  using namespace llvm::PatternMatch;
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
    return {nullptr, true, constant->getZExtValue(), false};
  llvm::Value *operand = nullptr;
  const llvm::APInt *constant = nullptr;
  if (steps < MaxSteps && value->getType()->isIntegerTy(64)) {
    bool add = match(value, m_Add(m_Value(operand), m_APInt(constant))) ||
               match(value, m_DisjointOr(m_Value(operand), m_APInt(constant)));
    bool sub = !add && match(value, m_Sub(m_Value(operand), m_APInt(constant)));
    if (add || sub) {
      RootAndOffset inner = decomposeInteger(operand, block, steps + 1);
      inner.offset += add ? constant->getZExtValue() : -constant->getZExtValue();
      inner.elsewhere |= definedElsewhere(value, block);
      return inner;
    }
  }
  return {value, true, 0, false};
}

RootAndOffset decomposePointer(llvm::Value *pointer, const llvm::BasicBlock *block,
                               unsigned steps) {
  if (llvm::isa<llvm::ConstantPointerNull>(pointer))
    return {nullptr, true, 0, false};
  auto *gep = llvm::dyn_cast<llvm::GEPOperator>(pointer);
  if (!gep || steps >= MaxSteps || gep->getNumIndices() != 1 ||
      !gep->getSourceElementType()->isIntegerTy(8) ||
      !gep->getOperand(1)->getType()->isIntegerTy(64))
    return {pointer, false, 0, false};
  RootAndOffset base = decomposePointer(gep->getPointerOperand(), block, steps + 1);
  RootAndOffset index = decomposeInteger(gep->getOperand(1), block, steps + 1);
  if (base.root && index.root) // two variable parts: the GEP itself is the root
    return {pointer, false, 0, false};
  RootAndOffset sum = base.root ? base : index;
  sum.offset = base.offset + index.offset;
  sum.elsewhere = base.elsewhere || index.elsewhere || definedElsewhere(pointer, block);
  return sum;
}

llvm::Value *rebuild(const RootAndOffset &address, llvm::Instruction &access) {
  llvm::IRBuilder<> builder(&access);
  llvm::Type *byte = builder.getInt8Ty();
  llvm::Value *base = address.root;
  if (address.integerRoot) {
    auto *pointerType = llvm::PointerType::get(access.getContext(), 0);
    llvm::Value *null = llvm::ConstantPointerNull::get(pointerType);
    base = address.root ? builder.CreateGEP(byte, null, address.root) : null;
  }
  if (address.offset == 0)
    return base;
  return builder.CreateGEP(byte, base, builder.getInt64(address.offset));
}

unsigned foldInFunction(llvm::Function &function) {
  unsigned rewritten = 0;
  llvm::SmallVector<llvm::WeakTrackingVH, 64> replaced;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : block) {
      if (!llvm::isa<llvm::LoadInst, llvm::StoreInst>(instruction))
        continue;
      llvm::Value *pointer = llvm::getLoadStorePointerOperand(&instruction);
      if (pointer->getType()->getPointerAddressSpace() != 0)
        continue;
      RootAndOffset address = decomposePointer(pointer, &block, 0);
      if (!address.elsewhere || address.root == pointer)
        continue;
      unsigned operand = llvm::isa<llvm::LoadInst>(instruction) ? 0 : 1;
      instruction.setOperand(operand, rebuild(address, instruction));
      replaced.push_back(pointer);
      ++rewritten;
    }
  for (llvm::WeakTrackingVH &old : replaced)
    if (auto *instruction = llvm::dyn_cast_or_null<llvm::Instruction>(old))
      llvm::RecursivelyDeleteTriviallyDeadInstructions(instruction);
  return rewritten;
}

} // namespace

unsigned foldGuestAddresses(llvm::Module &module) {
  unsigned rewritten = 0;
  for (llvm::Function &function : module)
    if (isLiftedFunction(function))
      rewritten += foldInFunction(function);
  return rewritten;
}

} // namespace hoist
