#include "Translate/StateLiveness.h"

#include "Arch/StateLayout.h"
#include "Translate/BlockDataflow.h"
#include "Translate/StatePointers.h"

#include <llvm/IR/Module.h>

namespace hoist {

StateLiveness::StateLiveness(llvm::Function &function, const StateEffectsMap *effects)
    : function_(function), state_(function.getArg(0)), effects_(effects),
      layout_(function.getParent()->getDataLayout()) {
  uint64_t size = layout_.getTypeAllocSize(getStateType(function.getContext()));
  all_ = llvm::BitVector(size, true);
  none_ = llvm::BitVector(size, false);
}

void StateLiveness::solve() {
  solveBlockDataflow(function_, FlowDirection::Backward, [&](llvm::BasicBlock &block) {
    llvm::BitVector live = liveOut(block);
    for (llvm::Instruction &instruction : llvm::reverse(block))
      apply(instruction, live, nullptr);
    return recordBlockResult(liveIn_, &block, std::move(live));
  });
}

std::vector<llvm::StoreInst *> StateLiveness::deadStores() {
  std::vector<llvm::StoreInst *> dead;
  for (auto &[block, unused] : liveIn_) {
    llvm::BitVector live = liveOut(*block);
    for (llvm::Instruction &instruction : llvm::reverse(*block))
      apply(instruction, live, &dead);
  }
  return dead;
}

const llvm::BitVector *StateLiveness::liveIn(llvm::BasicBlock *block) const {
  auto it = liveIn_.find(block);
  return it == liveIn_.end() ? nullptr : &it->second;
}

llvm::BitVector StateLiveness::liveOut(llvm::BasicBlock &block) const {
  llvm::Instruction *terminator = block.getTerminator();
  if (llvm::isa<llvm::ReturnInst>(terminator))
    return all_;   // the caller reads State
  llvm::BitVector live = none_;
  for (llvm::BasicBlock *successor : llvm::successors(&block))
    if (auto it = liveIn_.find(successor); it != liveIn_.end())
      live |= it->second;
  return live;
}

/// The bytes [offset, offset + size) of State, or nullopt when they are not all in it.
std::optional<llvm::BitVector> StateLiveness::range(int64_t offset, uint64_t size) const {
  if (offset < 0 || offset + size > all_.size())
    return std::nullopt;
  llvm::BitVector bytes = none_;
  bytes.set(offset, offset + size);
  return bytes;
}

std::optional<llvm::BitVector> StateLiveness::bytesStored(llvm::StoreInst &store) const {
  StateLocation location = locateInState(store.getPointerOperand(), state_, layout_);
  if (location.kind != StateLocation::Field || !store.isSimple())
    return std::nullopt;
  return range(location.offset, layout_.getTypeStoreSize(store.getValueOperand()->getType()));
}

void StateLiveness::apply(llvm::Instruction &instruction, llvm::BitVector &live,
                          std::vector<llvm::StoreInst *> *dead) const {
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
    auto bytes = bytesStored(*store);
    if (!bytes)
      return;   // a store somewhere in State kills nothing
    if (!bytes->anyCommon(live)) {
      if (dead)
        dead->push_back(store);
      return;
    }
    live.reset(*bytes);
    return;
  }
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
    StateLocation location = locateInState(load->getPointerOperand(), state_, layout_);
    if (location.kind == StateLocation::Unknown)
      live = all_;
    else if (location.kind == StateLocation::Field) {
      auto bytes = range(location.offset, layout_.getTypeStoreSize(load->getType()));
      if (bytes)
        live |= *bytes;
      else
        live = all_;
    }
    return;
  }
  if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
    if (const StateEffects *callee = effectsOfCall(effects_, *call, state_, layout_))
      live |= callee->reads;
    else if (callReachesState(*call, state_, layout_))
      live = all_;
  }
}

} // namespace hoist
