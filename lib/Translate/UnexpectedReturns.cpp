#include "Translate/UnexpectedReturns.h"

#include "Translate/StatePointers.h"
#include "hoist/State.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <cstddef>

namespace hoist {
namespace {

/// `call __hoist_jmp(%state, %mem, %to)` right before `ret void`, where %to is a load of
/// State.RIP: the lifter's continuation after a callee returned elsewhere.
bool isReturnedElsewhereJump(llvm::CallInst &call, const llvm::DataLayout &layout) {
  llvm::Function *callee = call.getCalledFunction();
  if (!callee || callee->getName() != "__hoist_jmp" || call.arg_size() != 3 ||
      !llvm::isa_and_nonnull<llvm::ReturnInst>(call.getNextNode()))
    return false;
  llvm::Value *state = call.getFunction()->getArg(0);
  auto *target = llvm::dyn_cast<llvm::LoadInst>(call.getArgOperand(2));
  if (call.getArgOperand(0) != state || !target || !target->getType()->isIntegerTy(64))
    return false;
  StateLocation location = locateInState(target->getPointerOperand(), state, layout);
  return location.kind == StateLocation::Field &&
         location.offset == int64_t(offsetof(HoistState, RIP));
}

/// The address of the call instruction whose check `jump` is (its `!hoist.pc`, else the
/// lifter's map of its function, `sites`, filled once per function), or 0.
uint64_t callSite(const llvm::CallInst &jump, const Lifter &lifter,
                  llvm::DenseMap<const llvm::Instruction *, uint64_t> &sites,
                  const llvm::Function *&sitesOf) {
  if (std::optional<uint64_t> tagged = pcMetadataOf(jump))
    return *tagged;
  if (sitesOf != jump.getFunction()) {
    sitesOf = jump.getFunction();
    sites.clear();
    for (const InstructionAddress &entry : lifter.instructionAddresses(*sitesOf))
      sites.try_emplace(entry.instruction, entry.address);   // the first entry counts
  }
  // The jump is its machine instruction's first IR instruction in its block: it has an entry.
  auto found = sites.find(&jump);
  return found == sites.end() ? 0 : found->second;
}

} // namespace

unsigned endUnexpectedReturns(llvm::Module &module, const Lifter &lifter) {
  std::vector<std::pair<llvm::CallInst *, uint64_t>> jumps;
  for (llvm::Function &function : module) {
    if (!isLiftedFunction(function))
      continue;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (isReturnedElsewhereJump(*call, module.getDataLayout()))
          jumps.emplace_back(call, 0);
  }
  if (jumps.empty())
    return 0;
  llvm::LLVMContext &context = module.getContext();
  auto *i64 = llvm::Type::getInt64Ty(context);
  llvm::FunctionCallee report = module.getOrInsertFunction(
      "hoist_unexpected_return", llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                                         {i64, i64}, false));
  if (auto *declared = llvm::dyn_cast<llvm::Function>(report.getCallee())) {
    declared->setDoesNotReturn();
    declared->setDoesNotThrow();
  }
  // Every address is read before the first change: the map names the IR as lifted.
  llvm::DenseMap<const llvm::Instruction *, uint64_t> sites;
  const llvm::Function *sitesOf = nullptr;
  for (auto &[jump, site] : jumps)
    site = callSite(*jump, lifter, sites, sitesOf);
  for (auto [jump, site] : jumps) {
    llvm::Instruction *ret = jump->getNextNode();
    llvm::IRBuilder<> ir(jump);
    llvm::CallInst *call = ir.CreateCall(report, {jump->getArgOperand(2), ir.getInt64(site)});
    call->setDoesNotReturn();
    call->copyMetadata(*jump, {context.getMDKindID("hoist.pc")});
    ir.CreateUnreachable();
    ret->eraseFromParent();
    jump->eraseFromParent();
  }
  return unsigned(jumps.size());
}

} // namespace hoist
