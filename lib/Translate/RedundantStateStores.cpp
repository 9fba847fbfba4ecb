#include "Translate/RedundantStateStores.h"

#include "Translate/BlockDataflow.h"
#include "Translate/ClobberMarkers.h"
#include "Translate/ClobberedStateStores.h"
#include "Translate/PartlyDeadStateStores.h"
#include "Translate/RunPasses.h"
#include "Translate/StatePointers.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Scalar/ADCE.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

#include <map>
#include <optional>

namespace hoist {
namespace {

/// A State field as one access sees it: byte offset, and the access type (a field read as
/// i64 and as i32 are two keys; a write to either forgets both).
struct FieldKey {
  int64_t offset;
  llvm::Type *type;
  bool operator==(const FieldKey &other) const = default;
  bool operator<(const FieldKey &other) const {
    return offset != other.offset ? offset < other.offset : type < other.type;
  }
};

/// The SSA value a field holds, and whether this function stored it (else it was read).
struct Known {
  llvm::Value *value;
  bool stored;
  bool operator==(const Known &other) const = default;
};

/// What is known at a program point: field -> the value it holds.
using Facts = std::map<FieldKey, Known>;

class Analysis {
public:
  Analysis(llvm::Function &function, const StateEffectsMap *effects)
      : function_(function), state_(function.getArg(0)), effects_(effects),
        layout_(function.getParent()->getDataLayout()) {}

  /// Iterates to a fixpoint; false when the budget ran out (then nothing is removed).
  bool solve() {
    return solveBlockDataflow(
        function_, FlowDirection::Forward,
        [&](llvm::BasicBlock &block) {
          Facts facts = entryFacts(block);
          for (llvm::Instruction &instruction : block)
            apply(instruction, facts, nullptr);
          return recordBlockResult(exit_, &block, std::move(facts));
        },
        /*maxRounds=*/20);
  }

  /// The stores that write what their field already holds.
  std::vector<llvm::StoreInst *> redundantStores() {
    std::vector<llvm::StoreInst *> redundant;
    for (auto &[block, unused] : exit_) {
      Facts facts = entryFacts(*block);
      for (llvm::Instruction &instruction : *block)
        apply(instruction, facts, &redundant);
    }
    return redundant;
  }

private:
  void forgetOverlapping(Facts &facts, int64_t offset, uint64_t size) {
    for (auto it = facts.begin(); it != facts.end();) {
      int64_t start = it->first.offset;
      int64_t end = start + (int64_t)layout_.getTypeStoreSize(it->first.type);
      bool overlaps = start < offset + (int64_t)size && offset < end;
      it = overlaps ? facts.erase(it) : std::next(it);
    }
  }

  /// The fields a lifted callee may write, by its summary.
  void forgetWritten(Facts &facts, const llvm::BitVector &writes) {
    for (auto it = facts.begin(); it != facts.end();) {
      int64_t start = it->first.offset;
      int64_t end = start + (int64_t)layout_.getTypeStoreSize(it->first.type);
      bool written = start < 0 || end > (int64_t)writes.size() ||
                     writes.find_first_in(start, end) != -1;
      it = written ? facts.erase(it) : std::next(it);
    }
  }

  static void forgetValue(Facts &facts, const llvm::Value *value) {
    for (auto it = facts.begin(); it != facts.end();)
      it = it->second.value == value ? facts.erase(it) : std::next(it);
  }

  void apply(llvm::Instruction &instruction, Facts &facts,
             std::vector<llvm::StoreInst *> *redundant) {
    if (llvm::isa<llvm::PHINode>(instruction))
      return;   // entryFacts() accounted for this block's phis
    if (!instruction.getType()->isVoidTy())
      forgetValue(facts, &instruction);   // a new instance of this value from here on
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      llvm::Value *value = store->getValueOperand();
      StateLocation location = locateInState(store->getPointerOperand(), state_, layout_);
      if (location.kind == StateLocation::Unknown ||
          (location.kind != StateLocation::None && !store->isSimple())) {
        facts.clear();
        return;
      }
      if (location.kind == StateLocation::None)
        return;
      FieldKey key{location.offset, value->getType()};
      auto known = facts.find(key);
      if (known != facts.end() && known->second.value == value) {
        if (redundant)
          redundant->push_back(store);
        return;
      }
      forgetOverlapping(facts, key.offset, layout_.getTypeStoreSize(key.type));
      facts[key] = Known{value, true};
      return;
    }
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      StateLocation location = locateInState(load->getPointerOperand(), state_, layout_);
      if (location.kind == StateLocation::Field && load->isSimple())
        facts.try_emplace(FieldKey{location.offset, load->getType()}, Known{load, false});
      return;
    }
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
      if (const StateEffects *callee = effectsOfCall(effects_, *call, state_, layout_))
        forgetWritten(facts, callee->writes);
      else if (call->mayWriteToMemory() && callReachesState(*call, state_, layout_))
        facts.clear();
      // A library call needs no rule of its own: the import body stores a marker or a result
      // into every caller-saved field right after it (ClobberMarkers.h), and those stores
      // replace what was known, as any store does.
      return;
    }
    // A locked instruction's atomic on guest memory (Arch/AtomicAccess.cpp) writes no field:
    // State is no guest memory, and no other thread sees this one's State.
    if (llvm::Value *pointer = atomicPointerOperand(instruction);
        pointer && locateInState(pointer, state_, layout_).kind == StateLocation::None)
      return;
    if (instruction.mayWriteToMemory())
      facts.clear();   // atomics on State and the like; lifted code has none
  }

  /// The facts at the entry of `block`, from its predecessors' exits (those not yet visited
  /// are skipped: the fixpoint checks them once they are).
  Facts entryFacts(llvm::BasicBlock &block) {
    if (&block == &function_.getEntryBlock())
      return {};
    std::vector<std::pair<llvm::BasicBlock *, const Facts *>> visited;
    for (llvm::BasicBlock *predecessor : llvm::predecessors(&block))
      if (auto it = exit_.find(predecessor); it != exit_.end())
        visited.push_back({predecessor, &it->second});
    if (visited.empty())
      return {};
    Facts merged;
    for (auto &[key, known] : *visited.front().second) {
      bool same = true, stored = false;
      for (auto &[predecessor, facts] : visited) {
        auto it = facts->find(key);
        same &= it != facts->end() && it->second.value == known.value;
        stored |= same && it->second.stored;
      }
      auto *phi = llvm::dyn_cast<llvm::PHINode>(known.value);
      if (same && !(phi && phi->getParent() == &block))   // not a phi being redefined here
        merged[key] = Known{known.value, stored};
    }
    // A phi of this block holds the field's value when each predecessor's field held the
    // phi's incoming value from it.
    for (llvm::PHINode &phi : block.phis()) {
      std::optional<FieldKey> found;
      for (auto &[key, known] : *visited.front().second)
        if (known.value == phi.getIncomingValueForBlock(visited.front().first) &&
            key.type == phi.getType() && !merged.count(key)) {
          found = key;
          break;
        }
      if (!found)
        continue;
      bool holds = true, stored = false;
      for (auto &[predecessor, facts] : visited) {
        auto it = facts->find(*found);
        holds &= it != facts->end() &&
                 it->second.value == phi.getIncomingValueForBlock(predecessor);
        stored |= holds && it->second.stored;
      }
      if (holds)
        merged[*found] = Known{&phi, stored};
    }
    return merged;
  }


  llvm::Function &function_;
  const llvm::Value *state_;
  const StateEffectsMap *effects_;
  const llvm::DataLayout &layout_;
  std::map<llvm::BasicBlock *, Facts> exit_;
};

uint64_t countStores(llvm::Module &module) {
  uint64_t stores = 0;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block)
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
          stores += !isClobberMarker(store->getValueOperand());   // not the program's
  return stores;
}

} // namespace

llvm::PreservedAnalyses RedundantStateStoresPass::run(llvm::Function &function,
                                                      llvm::FunctionAnalysisManager &) {
  if (!isLiftedFunction(function))
    return llvm::PreservedAnalyses::all();
  Analysis analysis(function, effects_);
  if (!analysis.solve())
    return llvm::PreservedAnalyses::all();
  std::vector<llvm::StoreInst *> redundant = analysis.redundantStores();
  if (redundant.empty())
    return llvm::PreservedAnalyses::all();
  for (llvm::StoreInst *store : redundant)
    store->eraseFromParent();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

uint64_t removeRedundantStateStores(llvm::Module &module, const StateEffectsMap *effects) {
  llvm::FunctionPassManager passes;
  passes.addPass(RedundantStateStoresPass(effects));
  passes.addPass(ClobberedStateStoresPass(effects));
  if (effects)   // after the optimizer: what it does next could not undo the sinking
    passes.addPass(PartlyDeadStateStoresPass(effects));
  passes.addPass(llvm::ADCEPass());   // the phis and values only those stores used
  passes.addPass(llvm::SimplifyCFGPass());
  llvm::ModulePassManager pipeline;
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(passes)));
  uint64_t before = countStores(module);
  runModulePasses(module, pipeline);
  return before - countStores(module);
}

} // namespace hoist
