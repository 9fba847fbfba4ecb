#include "Brighten/IndirectCalls.h"

#include "Brighten/CallShim.h"
#include "Brighten/ImportSlots.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace hoist {
namespace {

constexpr const char *CallIntrinsicName = "__hoist_call";
/// The modeled callee's memory effects are unknown, so that memory the function hands out (a
/// local whose address an import took) is not assumed kept; the State is local and never
/// handed out, so registers are.
llvm::FunctionCallee modeledCall(llvm::Module &module) {
  llvm::Type *i64 = llvm::Type::getInt64Ty(module.getContext());
  llvm::FunctionCallee model =
      module.getOrInsertFunction(ModeledCallName, llvm::FunctionType::get(i64, {i64, i64}, false));
  if (auto *function = llvm::dyn_cast<llvm::Function>(model.getCallee()))
    function->addFnAttr(llvm::Attribute::NoUnwind);
  return model;
}

} // namespace

bool isUnresolvedCall(const llvm::CallBase &call) {
  const llvm::Function *callee = call.getCalledFunction();
  return callee && callee->getName() == CallIntrinsicName && call.arg_size() == 3;
}

std::vector<llvm::CallBase *> unresolvedCalls(llvm::Function &function) {
  std::vector<llvm::CallBase *> found;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction); call && isUnresolvedCall(*call))
      found.push_back(call);
  return found;
}

void emitUnresolvedCallModel(llvm::CallBase &call, unsigned ordinal) {
  llvm::Type *i64 = llvm::Type::getInt64Ty(call.getContext());
  emitModeledCall(call, modeledCall(*call.getModule()),
                  {llvm::ConstantInt::get(i64, ordinal), call.getArgOperand(2)});
}

std::optional<std::vector<llvm::Function *>> modeledCallTargets(llvm::Function &probe,
                                                                unsigned count) {
  std::vector<llvm::Function *> targets(count, nullptr);
  for (llvm::Instruction &instruction : llvm::instructions(probe)) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    if (!callee || callee->getName() != ModeledCallName)
      continue;
    auto *ordinal = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    llvm::Function *import = importAddressed(call->getArgOperand(1));
    if (!ordinal || ordinal->getZExtValue() >= count || !import)
      return std::nullopt;
    llvm::Function *&target = targets[ordinal->getZExtValue()];
    if (target && target != import)
      return std::nullopt;
    target = import;
  }
  if (llvm::is_contained(targets, nullptr))
    return std::nullopt;
  return targets;
}

void callTargetsDirectly(llvm::Function &lifted, llvm::ArrayRef<llvm::Function *> targets) {
  for (auto [call, target] : llvm::zip(unresolvedCalls(lifted), targets)) {
    auto *direct = llvm::CallInst::Create(target, {call->getArgOperand(0), call->getArgOperand(1)},
                                          "", call);
    direct->copyMetadata(*call);
    call->eraseFromParent();
  }
}

} // namespace hoist
