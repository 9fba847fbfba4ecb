#include "Translate/PartlyDeadStateStores.h"

#include "Translate/ClobberMarkers.h"
#include "Translate/StateLiveness.h"
#include "Translate/StatePointers.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace hoist {
namespace {

/// Rounds of analysis and sinking per function: each moves a store at most one branch down.
constexpr unsigned MaxRounds = 4;

/// A store of `block` that one successor (or both) does not need, and which need it.
struct Sinkable {
  llvm::StoreInst *store;
  bool liveIn[2];
};

/// The stores at the end of `block` (nothing after them in the block touches their bytes) that
/// are dead at the entry of one of its two successors, last store first.
std::vector<Sinkable> sinkableStores(llvm::BasicBlock &block, const StateLiveness &liveness,
                                     const llvm::Value *state, const llvm::DataLayout &layout) {
  std::vector<Sinkable> sinkable;
  auto *branch = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
  if (!branch || !branch->isConditional() || branch->getSuccessor(0) == branch->getSuccessor(1))
    return sinkable;
  const llvm::BitVector *live[2] = {liveness.liveIn(branch->getSuccessor(0)),
                                    liveness.liveIn(branch->getSuccessor(1))};
  if (!live[0] || !live[1])
    return sinkable;
  // A successor reached from elsewhere too would need a block of its own on the edge: a jump
  // more on that edge, which may be the hot one (wc: 0.6% more instructions).
  bool onlyFromHere[2] = {branch->getSuccessor(0)->getSinglePredecessor() == &block,
                       branch->getSuccessor(1)->getSinglePredecessor() == &block};
  // What the instructions after the one looked at read or write, walking backwards: live
  // bytes (as the liveness computes them, starting from nothing) and written ones.
  llvm::BitVector touched(live[0]->size());
  for (llvm::Instruction &instruction : llvm::reverse(block)) {
    if (&instruction == branch)
      continue;
    auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
    if (!store) {
      // A call that may read or write State, or an atomic or a fence: the stores before it
      // stay before it.
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
        if (callReachesState(*call, state, layout))
          break;
      } else if (instruction.mayWriteToMemory()) {
        break;
      }
      liveness.apply(instruction, touched, nullptr);   // a load of State
      continue;
    }
    std::optional<llvm::BitVector> bytes = liveness.bytesStored(*store);
    if (!bytes) {
      if (locateInState(store->getPointerOperand(), state, layout).kind != StateLocation::None)
        break;   // State at an unknown place or a volatile store: keep the order
      continue;  // guest memory, which State does not overlap
    }
    bool sink = !bytes->anyCommon(touched) && !isClobberMarker(store->getValueOperand());
    bool liveIn[2] = {bytes->anyCommon(*live[0]), bytes->anyCommon(*live[1])};
    if (sink && !(liveIn[0] && liveIn[1]) && (!liveIn[0] || onlyFromHere[0]) &&
        (!liveIn[1] || onlyFromHere[1]))
      sinkable.push_back({store, {liveIn[0], liveIn[1]}});
    touched |= *bytes;
  }
  return sinkable;
}

bool sinkRound(llvm::Function &function, const StateEffectsMap *effects) {
  StateLiveness liveness(function, effects);
  liveness.solve();
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  std::vector<std::pair<llvm::BasicBlock *, std::vector<Sinkable>>> work;
  for (llvm::BasicBlock &block : function)
    if (std::vector<Sinkable> stores =
            sinkableStores(block, liveness, function.getArg(0), layout);
        !stores.empty())
      work.push_back({&block, std::move(stores)});
  for (auto &[block, stores] : work) {
    auto *branch = llvm::cast<llvm::BranchInst>(block->getTerminator());
    llvm::BasicBlock *successors[2] = {branch->getSuccessor(0), branch->getSuccessor(1)};
    // First in program order first, each before the successor's first instruction that is
    // not a phi: so the moved stores keep their order.
    llvm::Instruction *insertAt[2] = {&*successors[0]->getFirstInsertionPt(),
                                      &*successors[1]->getFirstInsertionPt()};
    for (Sinkable &sinkable : llvm::reverse(stores)) {
      llvm::StoreInst *store = sinkable.store;
      // Scoped alias metadata from inlining describes the store where it was.
      store->setMetadata(llvm::LLVMContext::MD_alias_scope, nullptr);
      store->setMetadata(llvm::LLVMContext::MD_noalias, nullptr);
      int side = sinkable.liveIn[0] ? 0 : sinkable.liveIn[1] ? 1 : -1;
      if (side < 0) {
        store->eraseFromParent();   // dead on both sides: what ClobberedStateStores left
        continue;
      }
      store->moveBefore(insertAt[side]);
    }
  }
  return !work.empty();
}

} // namespace

llvm::PreservedAnalyses PartlyDeadStateStoresPass::run(llvm::Function &function,
                                                       llvm::FunctionAnalysisManager &) {
  if (!isLiftedFunction(function))
    return llvm::PreservedAnalyses::all();
  bool changed = false;
  for (unsigned round = 0; round < MaxRounds && sinkRound(function, effects_); ++round)
    changed = true;
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace hoist
