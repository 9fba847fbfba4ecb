#include "Translate/ClobberedStateStores.h"

#include "Arch/StateLayout.h"
#include "Translate/BlockDataflow.h"
#include "Translate/ClobberMarkers.h"
#include "Translate/RunPasses.h"
#include "Translate/StateLiveness.h"
#include "Translate/StatePointers.h"

#include <llvm/ADT/BitVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>

#include <map>
#include <optional>

namespace hoist {
namespace {

uint64_t stateSize(llvm::Function &function) {
  return function.getParent()->getDataLayout().getTypeAllocSize(
      getStateType(function.getContext()));
}

/// Forward: which bytes of State hold what a library call left undefined, on every path.
class Clobbered {
public:
  Clobbered(llvm::Function &function, uint64_t stateSize)
      : function_(function), state_(function.getArg(0)),
        layout_(function.getParent()->getDataLayout()), none_(stateSize, false) {}

  void solve() {
    solveBlockDataflow(function_, FlowDirection::Forward, [&](llvm::BasicBlock &block) {
      llvm::BitVector clobbered = entry(block);
      for (llvm::Instruction &instruction : block)
        apply(instruction, clobbered, nullptr);
      return recordBlockResult(exit_, &block, std::move(clobbered));
    });
  }

  std::vector<llvm::LoadInst *> undefinedLoads() {
    std::vector<llvm::LoadInst *> loads;
    for (auto &[block, unused] : exit_) {
      llvm::BitVector clobbered = entry(*block);
      for (llvm::Instruction &instruction : *block)
        apply(instruction, clobbered, &loads);
    }
    return loads;
  }

private:
  /// The intersection over the predecessors seen so far (the others are still "everything":
  /// the iteration only removes bytes).
  llvm::BitVector entry(llvm::BasicBlock &block) {
    if (&block == &function_.getEntryBlock())
      return none_;
    std::optional<llvm::BitVector> merged;
    for (llvm::BasicBlock *predecessor : llvm::predecessors(&block)) {
      auto it = exit_.find(predecessor);
      if (it == exit_.end())
        continue;
      if (merged)
        *merged &= it->second;
      else
        merged = it->second;
    }
    return merged ? *merged : none_;
  }

  void apply(llvm::Instruction &instruction, llvm::BitVector &clobbered,
             std::vector<llvm::LoadInst *> *loads) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      StateLocation location = locateInState(store->getPointerOperand(), state_, layout_);
      if (location.kind == StateLocation::Unknown)
        clobbered = none_;
      else if (location.kind == StateLocation::Field) {
        uint64_t size = layout_.getTypeStoreSize(store->getValueOperand()->getType());
        if (location.offset < 0 || location.offset + size > none_.size())
          clobbered = none_;
        else if (isClobberMarker(store->getValueOperand()))
          clobbered.set(location.offset, location.offset + size);
        else
          clobbered.reset(location.offset, location.offset + size);
      }
      return;
    }
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      if (!loads || !load->isSimple())
        return;
      StateLocation location = locateInState(load->getPointerOperand(), state_, layout_);
      if (location.kind != StateLocation::Field || location.offset < 0)
        return;
      uint64_t size = layout_.getTypeStoreSize(load->getType());
      if (location.offset + size > none_.size())
        return;
      llvm::BitVector bytes = none_;
      bytes.set(location.offset, location.offset + size);
      if (!bytes.test(clobbered))   // every byte clobbered
        loads->push_back(load);
      return;
    }
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
      if (callReachesState(*call, state_, layout_))
        clobbered = none_;
    }
  }

  llvm::Function &function_;
  const llvm::Value *state_;
  const llvm::DataLayout &layout_;
  llvm::BitVector none_;
  std::map<llvm::BasicBlock *, llvm::BitVector> exit_;
};

} // namespace

llvm::PreservedAnalyses ClobberedStateLoadsPass::run(llvm::Function &function,
                                                     llvm::FunctionAnalysisManager &) {
  if (!isLiftedFunction(function))
    return llvm::PreservedAnalyses::all();
  Clobbered clobbered(function, stateSize(function));
  clobbered.solve();
  std::vector<llvm::LoadInst *> loads = clobbered.undefinedLoads();
  if (loads.empty())
    return llvm::PreservedAnalyses::all();
  // A general register or flag: frozen, not poison: an arbitrary but fixed value, as the
  // register holds in the machine. A partial write (`mov cl, ...`) must still give the written
  // byte, and poison would spread through the merge into the whole register. A vector or x87
  // register: undef, arbitrary bit by bit, which a merge keeps to the bits not written and
  // which lets a loop that never writes the register keep the value it came in with (a phi of
  // that value and undef is that value) instead of carrying a new one through every iteration.
  for (llvm::LoadInst *load : loads) {
    llvm::Type *type = load->getType();
    llvm::Value *value =
        type->isIntegerTy()
            ? static_cast<llvm::Value *>(
                  new llvm::FreezeInst(llvm::PoisonValue::get(type), "clobbered", load))
            : llvm::UndefValue::get(type);
    load->replaceAllUsesWith(value);
    load->eraseFromParent();
  }
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

llvm::PreservedAnalyses ClobberedStateStoresPass::run(llvm::Function &function,
                                                      llvm::FunctionAnalysisManager &) {
  if (!isLiftedFunction(function))
    return llvm::PreservedAnalyses::all();
  StateLiveness liveness(function, effects_);
  liveness.solve();
  std::vector<llvm::StoreInst *> dead = liveness.deadStores();
  if (dead.empty())
    return llvm::PreservedAnalyses::all();
  for (llvm::StoreInst *store : dead)
    store->eraseFromParent();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

void forgetClobberedRegisters(llvm::Module &module) {
  llvm::ModulePassManager pipeline;
  pipeline.addPass(llvm::AlwaysInlinerPass());
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(ClobberedStateLoadsPass()));
  runModulePasses(module, pipeline);
}

} // namespace hoist
