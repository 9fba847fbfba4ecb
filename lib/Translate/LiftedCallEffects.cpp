#include "Translate/LiftedCallEffects.h"

#include "Passes/CachedCaptureAA.h"

#include "Arch/StateLayout.h"
#include "Translate/StatePointers.h"
#include "hoist/State.h"

#include <llvm/Analysis/CaptureTracking.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Passes/PassBuilder.h>

#include <cstddef>

namespace hoist {

llvm::AnalysisKey LiftedCallAA::Key;

namespace {

/// One function's own accesses to its State and the lifted functions it passes State to.
struct LocalEffects {
  StateEffects own;
  std::vector<const llvm::Function *> callees;
};

class EffectScanner {
public:
  EffectScanner(llvm::Function &function, uint64_t stateSize)
      : state_(function.getArg(0)), layout_(function.getParent()->getDataLayout()),
        none_(stateSize, false), all_(stateSize, true) {
    effects_.own = {none_, none_, ""};
  }

  LocalEffects scan(llvm::Function &function) {
    if (llvm::PointerMayBeCaptured(state_, /*ReturnCaptures=*/true, /*StoreCaptures=*/true))
      return everything();
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
        access(load->getPointerOperand(), load->getType(), effects_.own.reads);
      else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
        access(store->getPointerOperand(), store->getValueOperand()->getType(),
               effects_.own.writes);
      else if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        this->call(*call);
      else if (instruction.mayReadOrWriteMemory() &&
               llvm::any_of(instruction.operands(), [&](llvm::Value *operand) {
                 return operand->getType()->isPointerTy() &&
                        locateInState(operand, state_, layout_).kind != StateLocation::None;
               }))
        return everything();   // atomics on State: not made by the lifter
    }
    return effects_;
  }

private:
  LocalEffects everything() { return LocalEffects{{all_, all_, ""}, {}}; }

  void access(llvm::Value *pointer, llvm::Type *type, llvm::BitVector &bytes) {
    access(pointer, layout_.getTypeStoreSize(type), bytes);
  }

  void access(llvm::Value *pointer, uint64_t size, llvm::BitVector &bytes) {
    StateLocation location = locateInState(pointer, state_, layout_);
    if (location.kind == StateLocation::None)
      return;
    if (location.kind == StateLocation::Unknown || location.offset < 0 ||
        location.offset + size > bytes.size())
      bytes.set();
    else
      bytes.set(location.offset, location.offset + size);
  }

  void call(llvm::CallBase &call) {
    if (!callReachesState(call, state_, layout_))
      return;   // a library call: State is not its argument and never escapes
    // The optimizer merges stores of neighbouring fields into memset and memcpy.
    if (auto *memory = llvm::dyn_cast<llvm::MemIntrinsic>(&call))
      if (auto *length = llvm::dyn_cast<llvm::ConstantInt>(memory->getLength())) {
        access(memory->getDest(), length->getZExtValue(), effects_.own.writes);
        if (auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(memory))
          access(transfer->getSource(), length->getZExtValue(), effects_.own.reads);
        return;
      }
    llvm::Function *callee = call.getCalledFunction();
    bool onlyStateFirst = true;
    for (unsigned i = 0; i < call.arg_size(); ++i) {
      StateLocation location = locateInState(call.getArgOperand(i), state_, layout_);
      if (i == 0 ? location.kind != StateLocation::Field || location.offset != 0
                 : location.kind != StateLocation::None)
        onlyStateFirst = false;
    }
    if (callee && isLiftedFunction(*callee) && onlyStateFirst) {
      effects_.callees.push_back(callee);
      return;
    }
    if (callee && onlyStateFirst && runtimeEffects(callee->getName()))
      return;
    effects_.own.reads.set();   // the runtime (indirect calls, cpuid, ...): anything
    effects_.own.writes.set();
  }

  /// The runtime functions whose State effects are known (runtime/*.c), added to effects_.
  bool runtimeEffects(llvm::StringRef name) {
    if (name == "__hoist_trap") {   // ends the program; reads which exception it raises
      effects_.own.reads.set(offsetof(HoistState, EXCEPTION),
                             offsetof(HoistState, EXCEPTION) + sizeof(HoistState::EXCEPTION));
      return true;
    }
    if (name == "hoist_push_x87_result") {   // pushes on the x87 stack
      for (auto [offset, size] : {std::pair{offsetof(HoistState, ST), sizeof(HoistState::ST)},
                                  {offsetof(HoistState, FPU_SW), sizeof(HoistState::FPU_SW)},
                                  {offsetof(HoistState, FPU_TW), sizeof(HoistState::FPU_TW)}}) {
        effects_.own.reads.set(offset, offset + size);
        effects_.own.writes.set(offset, offset + size);
      }
      return true;
    }
    return false;
  }

  const llvm::Value *state_;
  const llvm::DataLayout &layout_;
  llvm::BitVector none_, all_;
  LocalEffects effects_;
};

uint64_t stateSize(llvm::Module &module) {
  return module.getDataLayout().getTypeAllocSize(getStateType(module.getContext()));
}

} // namespace

StateEffectsMap summarizeStateEffects(llvm::Module &module) {
  uint64_t size = stateSize(module);
  llvm::DenseMap<const llvm::Function *, LocalEffects> local;
  for (llvm::Function &function : module)
    if (isLiftedFunction(function))
      local[&function] = EffectScanner(function, size).scan(function);
  StateEffectsMap effects;
  for (auto &[function, own] : local) {
    effects[function] = own.own;
    effects[function].function = function->getName().str();
  }
  // Effects only grow, bounded by all of State: the iteration ends.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &[function, own] : local) {
      StateEffects &summary = effects[function];
      for (const llvm::Function *callee : own.callees) {
        const StateEffects &calleeEffects = effects[callee];
        llvm::BitVector reads = summary.reads, writes = summary.writes;
        reads |= calleeEffects.reads;
        writes |= calleeEffects.writes;
        if (reads != summary.reads || writes != summary.writes) {
          summary.reads = std::move(reads);
          summary.writes = std::move(writes);
          changed = true;
        }
      }
    }
  }
  return effects;
}

const StateEffects *effectsOfCall(const StateEffectsMap *effects, const llvm::CallBase &call,
                                  const llvm::Value *state, const llvm::DataLayout &layout) {
  const llvm::Function *callee = call.getCalledFunction();
  if (!effects || !callee || call.arg_size() != 2)
    return nullptr;
  auto found = effects->find(callee);
  if (found == effects->end() || found->second.function != callee->getName())
    return nullptr;
  int64_t offset = 0;
  if (llvm::GetPointerBaseWithConstantOffset(call.getArgOperand(0), offset, layout) != state ||
      offset != 0 || llvm::getUnderlyingObject(call.getArgOperand(1)) == state)
    return nullptr;
  return &found->second;
}

llvm::ModRefInfo LiftedCallAAResult::getModRefInfo(const llvm::CallBase *call,
                                                   const llvm::MemoryLocation &location,
                                                   llvm::AAQueryInfo &) {
  if (!location.Size.hasValue() || location.Size.isScalable())
    return llvm::ModRefInfo::ModRef;
  const llvm::DataLayout &layout = call->getModule()->getDataLayout();
  // The location must be at a known offset from the very pointer the callee receives as State.
  int64_t offset = 0;
  const llvm::Value *base = llvm::GetPointerBaseWithConstantOffset(location.Ptr, offset, layout);
  const StateEffects *found = effectsOfCall(effects_, *call, base, layout);
  if (!found)
    return llvm::ModRefInfo::ModRef;
  const StateEffects &effects = *found;
  uint64_t size = location.Size.getValue().getFixedValue();
  if (offset < 0 || offset + size > effects.reads.size() || size == 0)
    return llvm::ModRefInfo::ModRef;
  llvm::BitVector bytes(effects.reads.size(), false);
  bytes.set(offset, offset + size);
  llvm::ModRefInfo result = llvm::ModRefInfo::NoModRef;
  if (bytes.anyCommon(effects.reads))
    result |= llvm::ModRefInfo::Ref;
  if (bytes.anyCommon(effects.writes))
    result |= llvm::ModRefInfo::Mod;
  return result;
}

void registerLiftedCallAA(llvm::PassBuilder &, llvm::FunctionAnalysisManager &functions,
                          const StateEffectsMap &effects) {
  functions.registerPass([&effects] { return LiftedCallAA(effects); });
  // The cleanup's pipeline (BasicAA's escape answers cached: without them, LICM's MemorySSA
  // queries on one huge function walked the State argument's uses once per query, and a
  // csmith program's 58,000-instruction main did not finish in minutes), then the calls'.
  functions.registerPass([] {
    llvm::AAManager aliasAnalyses = cachedCaptureAAPipeline();
    aliasAnalyses.registerFunctionAnalysis<LiftedCallAA>();
    return aliasAnalyses;
  });
}

} // namespace hoist
