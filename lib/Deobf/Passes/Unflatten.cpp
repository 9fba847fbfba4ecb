// Unflattening: control-flow flattening sends every block through one dispatcher that
// chooses the next block by a state variable; each block sets the state of its successor.
// Once SROA has made the state a phi, every predecessor P of the dispatcher block D that gives
// the phi a constant can skip the dispatcher: starting from D with the phis' values for P,
// the blocks that only compute and branch (no memory read, no side effect but plain stores,
// which the threaded path does at N; values used only among themselves) are folded one after
// the other until a block whose branch does not fold or that does real work: the case block T. P then jumps to T directly (through a new block
// N, so that T's phis get their own incoming edge), and every phi on the skipped path gets
// its value for P at N, with SSAUpdater putting phis where both reach. When no predecessor
// is left, the dispatcher is unreachable and goes; the case blocks are wired as before.
//
// This is jump threading, which LLVM's JumpThreading refuses across loop headers (the
// dispatcher is one) and which -O1 does not run at all. Chains (a latch block collecting the
// state before the dispatcher, a tree of compares instead of a switch, a default) come out of
// the same walk. A state chosen by a condition, `select c, S1, S2` (or arithmetic on one i1
// value that folds to a constant either way), first splits P's edge into two edges with
// constant states, which are then threaded.
#include "Deobf/Passes/DeobfPasses.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

namespace hoist {
namespace {

constexpr unsigned MaxPathBlocks = 64;
constexpr unsigned MaxFoldDepth = 6;
constexpr unsigned MaxRounds = 4;
constexpr unsigned MaxStateTreeDepth = 32;   ///< selects in a chain of state choices

/// The blocks skipped for one predecessor, the case block reached, and the value every phi
/// and folded instruction of the skipped blocks has on this path.
struct Path {
  std::vector<llvm::BasicBlock *> skipped;   ///< D first
  llvm::SmallPtrSet<llvm::BasicBlock *, 8> skippedSet;
  llvm::BasicBlock *target = nullptr;
  llvm::DenseMap<llvm::Value *, llvm::Value *> values;   ///< null: not available at N
  bool decided = false;   ///< a conditional branch or switch was folded on the way
  size_t decidedLength = 0;   ///< skipped blocks up to the last folded decision

  /// `value` as seen on this path: its translation if the path defines it, else itself;
  /// null when the path computes it and it did not fold.
  llvm::Value *translate(llvm::Value *value) const {
    if (auto found = values.find(value); found != values.end())
      return found->second;
    auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
    if (instruction && skippedSet.count(instruction->getParent()))
      return nullptr;
    return value;
  }
};

/// A plain store: the only side effect a skipped block may have (the state written back to
/// its stack slot, which a variable index elsewhere in the frame keeps alive). The threaded
/// path performs it at N, in the same order: nothing between reads memory.
bool isPlainStore(const llvm::Instruction &instruction) {
  auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
  return store && store->isSimple();
}

/// A block the walk may skip: no memory reads, no side effects but plain stores.
bool isSkippable(const llvm::BasicBlock &block) {
  for (const llvm::Instruction &instruction : block)
    if (!llvm::isa<llvm::PHINode>(instruction) && !instruction.isTerminator() &&
        !isPlainStore(instruction) &&
        (instruction.mayHaveSideEffects() || instruction.mayReadFromMemory()))
      return false;
  return true;
}

/// The successor the terminator takes with the path's values, or null.
llvm::BasicBlock *foldedSuccessor(llvm::Instruction *terminator, Path &path) {
  if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(terminator)) {
    if (branch->isUnconditional())
      return branch->getSuccessor(0);
    auto *condition =
        llvm::dyn_cast_or_null<llvm::ConstantInt>(path.translate(branch->getCondition()));
    if (!condition)
      return nullptr;
    path.decided = true;
    path.decidedLength = path.skipped.size();
    return branch->getSuccessor(condition->isZero() ? 1 : 0);
  }
  if (auto *choice = llvm::dyn_cast<llvm::SwitchInst>(terminator)) {
    auto *condition =
        llvm::dyn_cast_or_null<llvm::ConstantInt>(path.translate(choice->getCondition()));
    if (!condition)
      return nullptr;
    path.decided = true;
    path.decidedLength = path.skipped.size();
    return choice->findCaseValue(condition)->getCaseSuccessor();
  }
  return nullptr;
}

/// Instructions of the skipped blocks used outside them would lose their definition. A phi
/// uses its value at the end of the incoming block, not in its own: a skipped value flowing
/// into a skipped block's phi from the target's side (a back edge) is used outside too.
bool staysInside(const Path &path) {
  for (llvm::BasicBlock *block : path.skipped)
    for (llvm::Instruction &instruction : *block) {
      if (llvm::isa<llvm::PHINode>(instruction))
        continue;
      for (llvm::Use &use : instruction.uses()) {
        auto *user = llvm::cast<llvm::Instruction>(use.getUser());
        auto *phi = llvm::dyn_cast<llvm::PHINode>(user);
        if (!path.skippedSet.count(phi ? phi->getIncomingBlock(use) : user->getParent()))
          return false;
      }
    }
  return true;
}

std::optional<Path> walk(llvm::BasicBlock *dispatcher, llvm::BasicBlock *predecessor,
                         const llvm::DataLayout &layout) {
  Path path;
  llvm::BasicBlock *block = dispatcher, *previous = predecessor;
  while (true) {
    // Phis read the values of the edge taken, all at once.
    std::vector<std::pair<llvm::PHINode *, llvm::Value *>> incoming;
    for (llvm::PHINode &phi : block->phis())
      incoming.push_back({&phi, path.translate(phi.getIncomingValueForBlock(previous))});
    llvm::BasicBlock *next = nullptr;
    if (isSkippable(*block) && path.skipped.size() < MaxPathBlocks) {
      for (auto &[phi, value] : incoming)
        path.values[phi] = value;
      path.skipped.push_back(block);
      path.skippedSet.insert(block);
      for (llvm::Instruction &instruction : *block) {
        if (llvm::isa<llvm::PHINode>(instruction) || instruction.isTerminator())
          continue;
        llvm::SmallVector<llvm::Constant *, 4> operands;
        for (llvm::Value *operand : instruction.operands())
          if (auto *constant = llvm::dyn_cast_or_null<llvm::Constant>(path.translate(operand)))
            operands.push_back(constant);
        if (operands.size() == instruction.getNumOperands())
          path.values[&instruction] =
              llvm::ConstantFoldInstOperands(&instruction, operands, layout);
      }
      next = foldedSuccessor(block->getTerminator(), path);
      if (!next || path.skippedSet.count(next)) {
        // This block decides nothing more on this path (or leads back into it): it is the
        // target, not skipped.
        path.skipped.pop_back();
        path.skippedSet.erase(block);
        for (llvm::Instruction &instruction : *block)
          path.values.erase(&instruction);
        next = nullptr;
      }
    }
    if (!next) {
      if (block == dispatcher || !path.decided)
        return std::nullopt;
      // Pure blocks walked after the last decision are the case's own code (a counter's
      // increment before the loop test), not dispatch: the target is the block that decision
      // chose, so their values stay where they are defined.
      if (path.decidedLength < path.skipped.size()) {
        block = path.skipped[path.decidedLength];
        for (size_t i = path.decidedLength; i < path.skipped.size(); ++i) {
          path.skippedSet.erase(path.skipped[i]);
          for (llvm::Instruction &instruction : *path.skipped[i])
            path.values.erase(&instruction);
        }
        path.skipped.resize(path.decidedLength);
      }
      if (!staysInside(path))
        return std::nullopt;
      path.target = block;
      return path;
    }
    previous = block;
    block = next;
  }
}

/// P jumps to the path's target through a new block N; the skipped phis get their path
/// values at N. False (nothing changed) when a value needed at N is not available there.
bool thread(llvm::BasicBlock *predecessor, llvm::BasicBlock *dispatcher, Path &path) {
  llvm::BasicBlock *last = path.skipped.back();
  std::vector<std::pair<llvm::PHINode *, llvm::Value *>> targetIncoming;
  for (llvm::PHINode &phi : path.target->phis()) {
    llvm::Value *value = path.translate(phi.getIncomingValueForBlock(last));
    if (!value)
      return false;
    targetIncoming.push_back({&phi, value});
  }
  // The skipped stores, done at N with the path's values.
  std::vector<llvm::StoreInst *> stores;
  for (llvm::BasicBlock *block : path.skipped)
    for (llvm::Instruction &instruction : *block)
      if (isPlainStore(instruction)) {
        auto *store = llvm::cast<llvm::StoreInst>(&instruction);
        if (!path.translate(store->getValueOperand()) ||
            !path.translate(store->getPointerOperand()))
          return false;
        stores.push_back(store);
      }
  std::vector<llvm::PHINode *> updated;
  for (llvm::BasicBlock *block : path.skipped)
    for (llvm::PHINode &phi : block->phis()) {
      bool usedOutside = false;
      for (llvm::User *user : phi.users())
        usedOutside |= llvm::cast<llvm::Instruction>(user)->getParent() != block ||
                       llvm::isa<llvm::PHINode>(user);
      if (!usedOutside)
        continue;
      if (!path.values.lookup(&phi))
        return false;
      updated.push_back(&phi);
    }

  llvm::Function &function = *dispatcher->getParent();
  auto *bridge = llvm::BasicBlock::Create(function.getContext(), dispatcher->getName() + ".thread",
                                          &function, path.target);
  llvm::BranchInst::Create(path.target, bridge);
  // A path value that is a phi the rewrite below changes means that phi's value when P
  // branched (a = b of a swap, or a phi left as it was): read it by a one-entry phi at N whose
  // incoming use, from P, the phi's own SSAUpdater then resolves at P's end. Used directly at N
  // it would read the phi's new value at N, or a definition that no longer dominates N.
  llvm::SmallPtrSet<llvm::PHINode *, 16> rewritten(updated.begin(), updated.end());
  auto atBridge = [&](llvm::Value *value) -> llvm::Value * {
    auto *phi = llvm::dyn_cast<llvm::PHINode>(value);
    if (!phi || !rewritten.count(phi))
      return value;
    auto *old = llvm::PHINode::Create(phi->getType(), 1, phi->getName() + ".old");
    old->insertInto(bridge, bridge->begin());
    old->addIncoming(phi, predecessor);
    return old;
  };
  for (auto &[phi, value] : targetIncoming)
    phi->addIncoming(atBridge(value), bridge);
  for (llvm::StoreInst *store : stores) {
    auto *copy = llvm::cast<llvm::StoreInst>(store->clone());
    copy->setOperand(0, atBridge(path.translate(store->getValueOperand())));
    copy->setOperand(1, atBridge(path.translate(store->getPointerOperand())));
    copy->insertBefore(bridge->getTerminator());
  }
  std::vector<llvm::Value *> bridgeValues;
  for (llvm::PHINode *phi : updated)
    bridgeValues.push_back(atBridge(path.values.lookup(phi)));
  predecessor->getTerminator()->replaceSuccessorWith(dispatcher, bridge);
  for (llvm::PHINode &phi : dispatcher->phis())
    while (phi.getBasicBlockIndex(predecessor) >= 0)
      phi.removeIncomingValue(predecessor, /*DeletePHIIfEmpty=*/false);

  for (auto [phi, bridgeValue] : llvm::zip(updated, bridgeValues)) {
    llvm::SSAUpdater updater;
    updater.Initialize(phi->getType(), phi->getName());
    updater.AddAvailableValue(phi->getParent(), phi);
    updater.AddAvailableValue(bridge, bridgeValue);
    for (llvm::Use &use : llvm::make_early_inc_range(phi->uses())) {
      auto *user = llvm::cast<llvm::Instruction>(use.getUser());
      if (user->getParent() == phi->getParent() && !llvm::isa<llvm::PHINode>(user))
        continue;
      updater.RewriteUse(use);
    }
  }
  return true;
}

/// `value` with `condition` replaced by `assumed`, folded to a constant (null if it does not
/// fold).
llvm::Constant *foldAssuming(llvm::Value *value, llvm::Value *condition, bool assumed,
                             const llvm::DataLayout &layout, unsigned depth = 0) {
  if (value == condition)
    return llvm::ConstantInt::getBool(value->getContext(), assumed);
  if (auto *constant = llvm::dyn_cast<llvm::Constant>(value))
    return constant;
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || depth > MaxFoldDepth || llvm::isa<llvm::PHINode>(instruction) ||
      instruction->mayReadOrWriteMemory())
    return nullptr;
  llvm::SmallVector<llvm::Constant *, 4> operands;
  for (llvm::Value *operand : instruction->operands()) {
    llvm::Constant *folded = foldAssuming(operand, condition, assumed, layout, depth + 1);
    if (!folded)
      return nullptr;
    operands.push_back(folded);
  }
  return llvm::ConstantFoldInstOperands(instruction, operands, layout);
}

/// The i1 a state value is chosen by: a select's condition, an extended i1, or either through
/// arithmetic with a constant.
llvm::Value *choosingCondition(llvm::Value *value, unsigned depth = 0) {
  if (value->getType()->isIntegerTy(1) && !llvm::isa<llvm::Constant>(value))
    return value;
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || depth > MaxFoldDepth)
    return nullptr;
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(instruction))
    return select->getCondition();
  if (llvm::isa<llvm::CastInst>(instruction))
    return choosingCondition(instruction->getOperand(0), depth + 1);
  if (llvm::isa<llvm::BinaryOperator>(instruction)) {
    for (unsigned i = 0; i < 2; ++i)
      if (llvm::isa<llvm::Constant>(instruction->getOperand(1 - i)))
        return choosingCondition(instruction->getOperand(i), depth + 1);
  }
  return nullptr;
}

bool isConstantInteger(llvm::Value *value) { return llvm::isa<llvm::ConstantInt>(value); }

/// `value` when `condition` is `assumed`: the chosen arm of a select on it, else `value`
/// folded to a constant (null if it does not fold).
llvm::Value *valueAssuming(llvm::Value *value, llvm::Value *condition, bool assumed,
                           const llvm::DataLayout &layout) {
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value);
      select && select->getCondition() == condition)
    return select->getOperand(assumed ? 1 : 2);
  return foldAssuming(value, condition, assumed, layout);
}

/// Whether `value` is a constant, or chosen by a condition between two such values: a tree
/// of selects (a state chosen among several cases, `c1 ? S1 : c2 ? S2 : S3`) splits into one
/// edge per leaf.
bool isStateTree(llvm::Value *value, const llvm::DataLayout &layout, unsigned depth = 0);

/// The states `value` takes when its choosing condition is true and false, if both are state
/// trees.
std::optional<std::pair<llvm::Value *, llvm::Value *>>
chosenStates(llvm::Value *value, llvm::Value *condition, const llvm::DataLayout &layout,
             unsigned depth = 0) {
  if (!condition)
    return std::nullopt;
  llvm::Value *ifTrue = valueAssuming(value, condition, true, layout);
  llvm::Value *ifFalse = valueAssuming(value, condition, false, layout);
  if (!ifTrue || !ifFalse || !isStateTree(ifTrue, layout, depth + 1) ||
      !isStateTree(ifFalse, layout, depth + 1))
    return std::nullopt;
  return std::pair{ifTrue, ifFalse};
}

bool isStateTree(llvm::Value *value, const llvm::DataLayout &layout, unsigned depth) {
  if (isConstantInteger(value))
    return true;
  return depth < MaxStateTreeDepth &&
         chosenStates(value, choosingCondition(value), layout, depth).has_value();
}

/// The distinct constants `phi` can take through the phis it reads (a latch block collecting
/// the state, whose default edge passes the dispatcher's own state phi back).
void constantsThroughPhis(llvm::PHINode &phi, llvm::SmallPtrSetImpl<llvm::PHINode *> &seen,
                          llvm::SmallPtrSetImpl<llvm::Value *> &constants) {
  if (!seen.insert(&phi).second || seen.size() > MaxPathBlocks)
    return;
  for (llvm::Value *value : phi.incoming_values()) {
    if (isConstantInteger(value))
      constants.insert(value);
    else if (auto *inner = llvm::dyn_cast<llvm::PHINode>(value))
      constantsThroughPhis(*inner, seen, constants);
  }
}

/// A phi of D that looks like a dispatcher state: at least two states, constants (directly or
/// through other phis) or chosen among constants by conditions. (A loop counter starting at
/// a constant has one: threading its entry edge would only make the loop irreducible.)
bool hasStatePhi(llvm::BasicBlock &block, const llvm::DataLayout &layout) {
  for (llvm::PHINode &phi : block.phis()) {
    if (!phi.getType()->isIntegerTy())
      continue;
    llvm::SmallPtrSet<llvm::PHINode *, 8> seen;
    llvm::SmallPtrSet<llvm::Value *, 8> constants;
    constantsThroughPhis(phi, seen, constants);
    unsigned states = constants.size();
    for (llvm::Value *value : phi.incoming_values())
      states += !isConstantInteger(value) && isStateTree(value, layout);
    if (states >= 2)
      return true;
  }
  return false;
}

/// A new block on the edge P -> D when P branches elsewhere too, D's phis have a chosen
/// (non-constant) state on it and it is P's only edge to D; null otherwise.
llvm::BasicBlock *splitStateEdge(llvm::BasicBlock *predecessor, llvm::BasicBlock &dispatcher,
                                 const llvm::DataLayout &layout) {
  llvm::Instruction *terminator = predecessor->getTerminator();
  if (!(llvm::isa<llvm::BranchInst>(terminator) || llvm::isa<llvm::SwitchInst>(terminator)) ||
      llvm::count(llvm::successors(predecessor), &dispatcher) != 1)
    return nullptr;
  bool chosen = false;
  for (llvm::PHINode &phi : dispatcher.phis()) {
    llvm::Value *value = phi.getIncomingValueForBlock(predecessor);
    chosen |= phi.getType()->isIntegerTy() && !isConstantInteger(value) &&
              isStateTree(value, layout);
  }
  if (!chosen)
    return nullptr;
  auto *edge = llvm::BasicBlock::Create(dispatcher.getContext(), predecessor->getName() + ".edge",
                                        dispatcher.getParent(), &dispatcher);
  llvm::BranchInst::Create(&dispatcher, edge);
  terminator->replaceSuccessorWith(&dispatcher, edge);
  for (llvm::PHINode &phi : dispatcher.phis())
    phi.setIncomingBlock(phi.getBasicBlockIndex(predecessor), edge);
  return edge;
}

/// A state chosen by a chain of selects on one value's equality with constants,
/// `k == C1 ? S1 : k == C2 ? S2 : ... : S0`: a switch on k (flattening lowers a `switch`
/// into such a chain).
struct StateSwitch {
  llvm::Value *key = nullptr;
  std::vector<std::pair<llvm::ConstantInt *, llvm::Value *>> cases;   ///< outermost first
  llvm::Value *otherwise = nullptr;
};

/// `value` as a StateSwitch of at least two cases whose states are state trees, if it is one.
/// A constant repeated further in keeps the outer select's state, which is the one it chose.
std::optional<StateSwitch> stateSwitch(llvm::Value *value, const llvm::DataLayout &layout) {
  StateSwitch result;
  llvm::SmallPtrSet<llvm::ConstantInt *, 16> seen;
  while (result.cases.size() < MaxStateTreeDepth) {
    auto *select = llvm::dyn_cast<llvm::SelectInst>(value);
    llvm::ConstantInt *constant = nullptr;
    auto *compare = select ? llvm::dyn_cast<llvm::ICmpInst>(select->getCondition()) : nullptr;
    if (!compare || !compare->isEquality() ||
        !(constant = llvm::dyn_cast<llvm::ConstantInt>(compare->getOperand(1))) ||
        (result.key && compare->getOperand(0) != result.key))
      break;
    result.key = compare->getOperand(0);
    bool equal = compare->getPredicate() == llvm::CmpInst::ICMP_EQ;
    llvm::Value *chosen = select->getOperand(equal ? 1 : 2);
    if (!isStateTree(chosen, layout))
      return std::nullopt;
    if (seen.insert(constant).second)
      result.cases.push_back({constant, chosen});
    value = select->getOperand(equal ? 2 : 1);
  }
  if (result.cases.size() < 2 || !isStateTree(value, layout))
    return std::nullopt;
  result.otherwise = value;
  return result;
}

/// Splits the edge P -> D (P ending in `branch`) whose state for `phi` is a StateSwitch into
/// one edge per case and one for the default: P switches on the key. Returns the new blocks.
std::vector<llvm::BasicBlock *> splitStateSwitch(llvm::BranchInst *branch,
                                                 llvm::BasicBlock &dispatcher,
                                                 llvm::PHINode &phi, const StateSwitch &choice) {
  llvm::BasicBlock *predecessor = branch->getParent();
  llvm::LLVMContext &context = dispatcher.getContext();
  std::vector<llvm::BasicBlock *> edges;
  auto edgeWith = [&](llvm::Value *state) {
    auto *edge = llvm::BasicBlock::Create(context, predecessor->getName() + ".case",
                                          dispatcher.getParent(), &dispatcher);
    llvm::BranchInst::Create(&dispatcher, edge);
    for (llvm::PHINode &other : dispatcher.phis())
      other.addIncoming(&other == &phi ? state : other.getIncomingValueForBlock(predecessor),
                        edge);
    edges.push_back(edge);
    return edge;
  };
  auto *choose = llvm::SwitchInst::Create(choice.key, edgeWith(choice.otherwise),
                                          choice.cases.size(), branch);
  for (auto &[constant, state] : choice.cases)
    choose->addCase(constant, edgeWith(state));
  for (llvm::PHINode &other : dispatcher.phis())
    other.removeIncomingValue(predecessor, /*DeletePHIIfEmpty=*/false);
  branch->eraseFromParent();
  return edges;
}

/// Splits an edge P -> D whose state is chosen by a condition into two edges (P: br c, N1,
/// N2; N1 and N2 jump to D), again for N1 and N2 until every edge has a constant state. A
/// chain of equality tests of one value becomes a switch on it instead.
bool splitChosenStates(llvm::BasicBlock &dispatcher, const llvm::DataLayout &layout) {
  bool changed = false;
  llvm::SmallVector<llvm::BasicBlock *, 16> worklist(llvm::predecessors(&dispatcher));
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> done;
  while (!worklist.empty()) {
    llvm::BasicBlock *predecessor = worklist.pop_back_val();
    if (!done.insert(predecessor).second)
      continue;
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(predecessor->getTerminator());
    if (!branch || branch->isConditional()) {
      // A switch case or conditional edge carrying a chosen state (the case that computes
      // the states sends them back to the dispatcher): a block of its own on that edge first.
      if (llvm::BasicBlock *edge = splitStateEdge(predecessor, dispatcher, layout)) {
        worklist.push_back(edge);
        changed = true;
      }
      continue;
    }
    for (llvm::PHINode &phi : dispatcher.phis()) {
      llvm::Value *value = phi.getIncomingValueForBlock(predecessor);
      if (!phi.getType()->isIntegerTy() || isConstantInteger(value))
        continue;
      if (std::optional<StateSwitch> choice = stateSwitch(value, layout)) {
        for (llvm::BasicBlock *edge : splitStateSwitch(branch, dispatcher, phi, *choice))
          worklist.push_back(edge);
        changed = true;
        break;
      }
      llvm::Value *condition = choosingCondition(value);
      auto states = chosenStates(value, condition, layout);
      if (!states)
        continue;
      auto [ifTrue, ifFalse] = *states;
      llvm::LLVMContext &context = dispatcher.getContext();
      llvm::Function *function = dispatcher.getParent();
      auto *whenTrue = llvm::BasicBlock::Create(context, predecessor->getName() + ".true",
                                                function, &dispatcher);
      auto *whenFalse = llvm::BasicBlock::Create(context, predecessor->getName() + ".false",
                                                 function, &dispatcher);
      llvm::BranchInst::Create(&dispatcher, whenTrue);
      llvm::BranchInst::Create(&dispatcher, whenFalse);
      for (llvm::PHINode &other : dispatcher.phis()) {
        llvm::Value *incoming = other.getIncomingValueForBlock(predecessor);
        other.addIncoming(&other == &phi ? ifTrue : incoming, whenTrue);
        other.addIncoming(&other == &phi ? ifFalse : incoming, whenFalse);
        other.removeIncomingValue(predecessor, /*DeletePHIIfEmpty=*/false);
      }
      llvm::BranchInst::Create(whenTrue, whenFalse, condition, branch);
      branch->eraseFromParent();
      worklist.push_back(whenTrue);
      worklist.push_back(whenFalse);
      changed = true;
      break;
    }
  }
  return changed;
}

} // namespace

llvm::PreservedAnalyses UnflattenPass::run(llvm::Function &function,
                                           llvm::FunctionAnalysisManager &) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  DeobfuscationCounts counts;
  bool changed = false;
  for (unsigned round = 0; round < MaxRounds; ++round) {
    bool roundChanged = false;
    // A dispatcher left with its initial edge and its own default loop has a state phi of one
    // constant and itself: that constant, and the initial edge is threaded next.
    for (llvm::BasicBlock &block : function)
      for (llvm::PHINode &phi : llvm::make_early_inc_range(block.phis()))
        if (llvm::Value *only = phi.hasConstantValue();
            only && only != &phi && llvm::isa<llvm::ConstantInt>(only)) {
          phi.replaceAllUsesWith(only);
          phi.eraseFromParent();
          roundChanged = true;
        }
    std::vector<llvm::BasicBlock *> blocks;
    for (llvm::BasicBlock &block : function)
      if (&block != &function.getEntryBlock() && hasStatePhi(block, layout))
        blocks.push_back(&block);
    for (llvm::BasicBlock *dispatcher : blocks) {
      roundChanged |= splitChosenStates(*dispatcher, layout);
      unsigned threaded = 0;
      llvm::SmallVector<llvm::BasicBlock *, 16> predecessors(llvm::predecessors(dispatcher));
      llvm::SmallPtrSet<llvm::BasicBlock *, 16> done;
      for (llvm::BasicBlock *predecessor : predecessors) {
        if (!done.insert(predecessor).second || predecessor == dispatcher ||
            !(llvm::isa<llvm::BranchInst>(predecessor->getTerminator()) ||
              llvm::isa<llvm::SwitchInst>(predecessor->getTerminator())))
          continue;
        std::optional<Path> path = walk(dispatcher, predecessor, layout);
        if (path && thread(predecessor, dispatcher, *path))
          ++threaded;
      }
      counts.edgesThreaded += threaded;
      counts.dispatchersUnflattened += threaded >= 2;
      roundChanged |= threaded != 0;
    }
    if (!roundChanged)
      break;
    changed = true;
    llvm::removeUnreachableBlocks(function);
  }
  if (!changed)
    return llvm::PreservedAnalyses::all();
  if (stats_)
    stats_->add(function.getName().str(), counts);
  return llvm::PreservedAnalyses::none();
}

} // namespace hoist
