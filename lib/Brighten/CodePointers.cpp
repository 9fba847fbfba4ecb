#include "Brighten/CodePointers.h"

#include "hoist/Image.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <limits>
#include <map>

namespace hoist {

bool isCodePointerMapping(const llvm::User &user) {
  const auto *call = llvm::dyn_cast<llvm::CallBase>(&user);
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName() == CodePointerName;
}

namespace {

/// The function whose address `value` is, or is computed from in a constant expression.
const llvm::Function *functionAddressIn(const llvm::Value *value) {
  const auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(value);
  if (!expression)
    return nullptr;
  if (expression->getOpcode() == llvm::Instruction::PtrToInt)
    return llvm::dyn_cast<llvm::Function>(expression->getOperand(0));
  for (const llvm::Value *operand : expression->operands())
    if (const llvm::Function *function = functionAddressIn(operand))
      return function;
  return nullptr;
}

} // namespace

const llvm::Function *computesWithFunctionAddress(const llvm::Function &probe) {
  for (const llvm::BasicBlock &block : probe)
    for (const llvm::Instruction &instruction : block) {
      bool arithmetic = llvm::isa<llvm::BinaryOperator>(instruction);
      for (const llvm::Value *operand : instruction.operands()) {
        const auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(operand);
        if (!expression)
          continue;
        // ptrtoint alone is the address handed on; in arithmetic it is computed with.
        bool bare = expression->getOpcode() == llvm::Instruction::PtrToInt;
        if (arithmetic || !bare)
          if (const llvm::Function *function = functionAddressIn(expression))
            return function;
      }
    }
  return nullptr;
}

llvm::FunctionCallee codePointerMap(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::FunctionCallee map = module.getOrInsertFunction(
      CodePointerName, llvm::FunctionType::get(llvm::PointerType::getUnqual(context),
                                               {llvm::Type::getInt64Ty(context)}, false));
  if (auto *function = llvm::dyn_cast<llvm::Function>(map.getCallee())) {
    function->setDoesNotAccessMemory();
    function->setDoesNotThrow();
  }
  return map;
}

std::vector<UnmappedCodeAddress>
defineCodePointerMap(llvm::Module &module, const Image &image,
                     const std::map<uint64_t, llvm::Function *> &functions) {
  std::vector<UnmappedCodeAddress> unmapped;
  llvm::Function *map = module.getFunction(CodePointerName);
  if (!map)
    return unmapped;
  for (llvm::User *user : llvm::make_early_inc_range(map->users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call)
      continue;
    // A brightened function's own address (ImageReferences made the constant one).
    auto *cast = llvm::dyn_cast<llvm::ConstantExpr>(call->getArgOperand(0));
    if (auto *function = cast && cast->getOpcode() == llvm::Instruction::PtrToInt
                             ? llvm::dyn_cast<llvm::Function>(cast->getOperand(0))
                             : nullptr) {
      call->replaceAllUsesWith(function);
      call->eraseFromParent();
      continue;
    }
    auto *address = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    if (!address)
      continue;
    if (auto known = functions.find(address->getZExtValue()); known != functions.end()) {
      call->replaceAllUsesWith(known->second);
      call->eraseFromParent();
    } else {
      unmapped.push_back({call->getFunction(), address->getZExtValue()});
    }
  }
  if (map->use_empty()) {
    map->eraseFromParent();
    return unmapped;
  }

  uint64_t low = std::numeric_limits<uint64_t>::max(), high = 0;
  for (const Section &section : image.sections())
    if (section.mapped) {
      low = std::min(low, section.address);
      high = std::max(high, section.address + section.size);
    }
  llvm::LLVMContext &context = module.getContext();
  map->setLinkage(llvm::GlobalValue::InternalLinkage);
  map->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());   // the trap
  llvm::Argument *address = map->getArg(0);
  address->setName("address");
  auto *entry = llvm::BasicBlock::Create(context, "entry", map);
  auto *outside = llvm::BasicBlock::Create(context, "outside", map);
  auto *process = llvm::BasicBlock::Create(context, "made.by.the.process", map);
  auto *missing = llvm::BasicBlock::Create(context, "no.function.there", map);
  llvm::IRBuilder<> builder(entry);
  llvm::SwitchInst *choice = builder.CreateSwitch(address, outside, functions.size());
  for (auto [original, function] : functions) {
    auto *found = llvm::BasicBlock::Create(context, function->getName(), map);
    llvm::ReturnInst::Create(context, function, found);
    choice->addCase(builder.getInt64(original), found);
  }
  builder.SetInsertPoint(outside);
  llvm::Value *inImage = builder.CreateAnd(builder.CreateICmpUGE(address, builder.getInt64(low)),
                                           builder.CreateICmpULT(address, builder.getInt64(high)));
  builder.CreateCondBr(inImage, missing, process);
  builder.SetInsertPoint(process);
  builder.CreateRet(builder.CreateIntToPtr(address, builder.getPtrTy()));
  builder.SetInsertPoint(missing);
  builder.CreateCall(llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::trap));
  builder.CreateUnreachable();
  return unmapped;
}

} // namespace hoist
