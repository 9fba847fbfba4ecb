#include "Translate/RedundantStateStores.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
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

/// What is known at a program point: field -> the SSA value it holds.
using Facts = std::map<FieldKey, llvm::Value *>;

struct Access {
  enum Kind { None, Field, Unknown } kind = None;   // Unknown: State at a variable offset
  FieldKey key{};
  uint64_t size = 0;
};

class Analysis {
public:
  Analysis(llvm::Function &function)
      : function_(function), state_(function.getArg(0)),
        layout_(function.getParent()->getDataLayout()) {}

  /// Iterates to a fixpoint; false when the budget ran out (then nothing is removed).
  bool solve() {
    llvm::ReversePostOrderTraversal<llvm::Function *> order(&function_);
    for (unsigned round = 0; round < 20; ++round) {
      bool changed = false;
      for (llvm::BasicBlock *block : order) {
        Facts facts = entryFacts(*block);
        for (llvm::Instruction &instruction : *block)
          apply(instruction, facts, nullptr);
        auto [it, inserted] = exit_.try_emplace(block, facts);
        if (!inserted && it->second != facts) {
          it->second = std::move(facts);
          changed = true;
        } else if (inserted) {
          changed = true;
        }
      }
      if (!changed)
        return true;
    }
    return false;
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
  /// Where a pointer points in State: a field at a constant offset, State at an unknown
  /// offset, or not State (State is a noalias argument nothing captured: another pointer
  /// cannot reach it).
  Access locate(llvm::Value *pointer, llvm::Type *type) {
    Access access;
    int64_t offset = 0;
    llvm::Value *base = llvm::GetPointerBaseWithConstantOffset(pointer, offset, layout_);
    if (base == state_) {
      access.kind = Access::Field;
      access.key = {offset, type};
      access.size = layout_.getTypeStoreSize(type);
      return access;
    }
    llvm::SmallVector<const llvm::Value *, 4> objects;
    llvm::getUnderlyingObjects(pointer, objects);
    for (const llvm::Value *object : objects)
      if (object == state_)
        access.kind = Access::Unknown;
    return access;
  }

  bool reachesState(llvm::CallBase &call) {
    for (llvm::Value *argument : call.args())
      if (argument->getType()->isPointerTy() && locate(argument, argument->getType()).kind != Access::None)
        return true;
    return false;
  }

  void forgetOverlapping(Facts &facts, int64_t offset, uint64_t size) {
    for (auto it = facts.begin(); it != facts.end();) {
      int64_t start = it->first.offset;
      int64_t end = start + (int64_t)layout_.getTypeStoreSize(it->first.type);
      bool overlaps = start < offset + (int64_t)size && offset < end;
      it = overlaps ? facts.erase(it) : std::next(it);
    }
  }

  static void forgetValue(Facts &facts, const llvm::Value *value) {
    for (auto it = facts.begin(); it != facts.end();)
      it = it->second == value ? facts.erase(it) : std::next(it);
  }

  void apply(llvm::Instruction &instruction, Facts &facts,
             std::vector<llvm::StoreInst *> *redundant) {
    if (llvm::isa<llvm::PHINode>(instruction))
      return;   // entryFacts() accounted for this block's phis
    if (!instruction.getType()->isVoidTy())
      forgetValue(facts, &instruction);   // a new instance of this value from here on
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      llvm::Value *value = store->getValueOperand();
      Access access = locate(store->getPointerOperand(), value->getType());
      if (access.kind == Access::Unknown || (access.kind != Access::None && !store->isSimple())) {
        facts.clear();
        return;
      }
      if (access.kind == Access::None)
        return;
      auto known = facts.find(access.key);
      if (known != facts.end() && known->second == value) {
        if (redundant)
          redundant->push_back(store);
        return;
      }
      forgetOverlapping(facts, access.key.offset, access.size);
      facts[access.key] = value;
      return;
    }
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      Access access = locate(load->getPointerOperand(), load->getType());
      if (access.kind == Access::Field && load->isSimple())
        facts.try_emplace(access.key, load);
      return;
    }
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
      if (call->mayWriteToMemory() && reachesState(*call))
        facts.clear();
      return;
    }
    if (instruction.mayWriteToMemory())
      facts.clear();   // atomics and the like; lifted code has none on State
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
    for (auto &[key, value] : *visited.front().second) {
      bool same = true;
      for (auto &[predecessor, facts] : visited) {
        auto it = facts->find(key);
        same &= it != facts->end() && it->second == value;
      }
      auto *phi = llvm::dyn_cast<llvm::PHINode>(value);
      if (same && !(phi && phi->getParent() == &block))   // not a phi being redefined here
        merged[key] = value;
    }
    // A phi of this block holds the field's value when each predecessor's field held the
    // phi's incoming value from it.
    for (llvm::PHINode &phi : block.phis()) {
      std::optional<FieldKey> found;
      for (auto &[key, value] : *visited.front().second)
        if (value == phi.getIncomingValueForBlock(visited.front().first) &&
            key.type == phi.getType() && !merged.count(key)) {
          found = key;
          break;
        }
      if (!found)
        continue;
      bool holds = true;
      for (auto &[predecessor, facts] : visited) {
        auto it = facts->find(*found);
        holds &= it != facts->end() && it->second == phi.getIncomingValueForBlock(predecessor);
      }
      if (holds)
        merged[*found] = &phi;
    }
    return merged;
  }


  llvm::Function &function_;
  llvm::Value *state_;
  const llvm::DataLayout &layout_;
  std::map<llvm::BasicBlock *, Facts> exit_;
};

bool isLiftedFunction(const llvm::Function &function) {
  return !function.isDeclaration() && function.arg_size() == 2 &&
         function.getReturnType()->isVoidTy() && function.getArg(0)->getType()->isPointerTy() &&
         function.hasParamAttribute(0, llvm::Attribute::NoAlias) &&
         function.hasParamAttribute(0, llvm::Attribute::NoCapture);
}

uint64_t removedStores = 0;

} // namespace

llvm::PreservedAnalyses RedundantStateStoresPass::run(llvm::Function &function,
                                                      llvm::FunctionAnalysisManager &) {
  if (!isLiftedFunction(function))
    return llvm::PreservedAnalyses::all();
  Analysis analysis(function);
  if (!analysis.solve())
    return llvm::PreservedAnalyses::all();
  std::vector<llvm::StoreInst *> redundant = analysis.redundantStores();
  if (redundant.empty())
    return llvm::PreservedAnalyses::all();
  for (llvm::StoreInst *store : redundant)
    store->eraseFromParent();
  removedStores += redundant.size();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

uint64_t removeRedundantStateStores(llvm::Module &module) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::FunctionPassManager passes;
  passes.addPass(RedundantStateStoresPass());
  passes.addPass(llvm::ADCEPass());   // the phis and values only those stores used
  passes.addPass(llvm::SimplifyCFGPass());
  llvm::ModulePassManager pipeline;
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(passes)));
  uint64_t before = removedStores;
  pipeline.run(module, modules);
  return removedStores - before;
}

} // namespace hoist
