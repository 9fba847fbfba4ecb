#include "Arch/RegisterFile.h"

#include "Arch/LiftBuilder.h"
#include "Arch/StateLayout.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Instructions.h>

namespace hoist {

namespace {

/// The alignment of a variable's State field (State.def keeps fields naturally aligned).
llvm::Align stateAlignment(llvm::LLVMContext &context, Var var) {
  if (isVectorVar(var) || isZmmHighVar(var) || isZmmVar(var))
    return llvm::Align(8);   // [4 x i64], [8 x i64]
  if (isX87Var(var))
    return llvm::Align(16);
  if (isFlagVar(var))
    return llvm::Align(1);
  return llvm::Align(varType(context, var)->getIntegerBitWidth() / 8);
}

} // namespace

/// A variable's definition in one block: a value, a pending flag thunk, or State itself.
struct RegisterFile::Def {
  /// May be a removed trivial phi or a replaced value: read through current().
  llvm::Value *value = nullptr;
  const FlagThunk *thunk = nullptr;
  /// State holds the variable (at the function entry, or after a call reloaded it) and no
  /// read has asked for it yet: the load is emitted when one does, at the end of the block.
  /// That is the same value, because nothing between the reload and the end of the block
  /// writes State except stores of the values State already has, and calls, which reload.
  bool inStatePending = false;
  /// `value` is what State holds here (it was loaded and not written since), so writing it
  /// back would store what is already there.
  bool inState = false;
  bool defined() const { return thunk || value || inStatePending; }
};

struct RegisterFile::Block {
  llvm::BasicBlock *bb;
  llvm::SmallVector<Block *, 2> preds;
  bool sealed = false;
  std::array<Def, NumVars> defs;
  llvm::SmallVector<std::pair<Var, llvm::PHINode *>, 4> placeholders;
};

RegisterFile::RegisterFile(llvm::BasicBlock *entry, llvm::Value *statePtr)
    : builder_(entry->getContext()), statePtr_(statePtr),
      stateType_(getStateType(entry->getContext())) {
  entry_ = createBlock(entry);
  entry_->sealed = true;
}

RegisterFile::~RegisterFile() {
  // A removed phi that still has a use would be a lifter bug; it is then left alive so that
  // the verifier reports the use instead of the process touching freed memory.
  for (llvm::PHINode *phi : removedPhis_)
    if (phi->use_empty())
      phi->deleteValue();
}

LiftBuilder &RegisterFile::builderAtEnd(llvm::BasicBlock *bb) {
  if (llvm::Instruction *terminator = bb->getTerminator())
    builder_.SetInsertPoint(terminator);
  else
    builder_.SetInsertPoint(bb);
  return builder_;
}

RegisterFile::Block *RegisterFile::createBlock(llvm::BasicBlock *bb) {
  Block *block = new (blocks_.Allocate()) Block();
  block->bb = bb;
  return block;
}

void RegisterFile::addPredecessor(Block *block, Block *pred) {
  assert(!block->sealed && "edge into a sealed block");
  block->preds.push_back(pred);
}

bool RegisterFile::isSealed(const Block *block) const { return block->sealed; }
llvm::BasicBlock *RegisterFile::basicBlock(const Block *block) const { return block->bb; }

void RegisterFile::seal(Block *block) {
  if (block->sealed)
    return;
  block->sealed = true;
  auto placeholders = std::move(block->placeholders);
  for (auto &[var, phi] : placeholders) {
    incompletePhis_.erase(phi);
    addPhiOperands(block, var, phi);
  }
}

void RegisterFile::define(Block *block, Var var, llvm::Value *value) {
  block->defs[static_cast<unsigned>(var)] = Def{value};
}

void RegisterFile::write(Block *block, Var var, llvm::Value *value) {
  written_.set(static_cast<unsigned>(var));
  define(block, var, value);
}

void RegisterFile::writeFlags(Block *block, const FlagThunk &thunk) {
  thunks_.push_back(thunk);
  unsigned defined = flagsDefinedBy(thunk.op);
  for (unsigned i = 0; i < 7; ++i) {
    if (!(defined & (1u << i)))
      continue;
    written_.set(static_cast<unsigned>(Var::CF) + i);
    Def &def = block->defs[static_cast<unsigned>(Var::CF) + i];
    def = Def{};
    def.thunk = &thunks_.back();
  }
}

llvm::Value *RegisterFile::read(Block *block, Var var) {
  Def &def = definition(block, var);
  if (def.thunk) {
    const FlagThunk &recorded = *def.thunk;
    FlagThunk thunk{recorded.op, current(recorded.lhs), current(recorded.rhs),
                    current(recorded.result), current(recorded.carryIn)};
    llvm::Value *value = computeFlag(builderAtEnd(block->bb), thunk, var);
    def = Def{value};
    return value;
  }
  if (def.inStatePending) {
    llvm::Value *value = loadFromState(block, var);
    def = Def{value};
    def.inState = true;
    return value;
  }
  def.value = current(def.value);
  return def.value;
}

llvm::Value *RegisterFile::current(llvm::Value *value) const {
  if (!clientReplaced_) {
    auto *phi = llvm::dyn_cast_or_null<llvm::PHINode>(value);
    if (!phi || phi->getParent())
      return value;   // not a removed phi: nothing replaced it
  }
  for (auto found = replacements_.find(value); found != replacements_.end();
       found = replacements_.find(value))
    value = found->second;
  return value;
}

void RegisterFile::valueReplaced(llvm::Value *from, llvm::Value *to) {
  clientReplaced_ = true;
  replacements_[from] = to;
}

RegisterFile::Def &RegisterFile::definition(Block *block, Var var) {
  Def &def = block->defs[static_cast<unsigned>(var)];
  if (def.defined())
    return def;
  if (block == entry_ || !mayWrite_[static_cast<unsigned>(var)]) {
    // Nothing in the function writes the variable: State holds it everywhere.
    def.inStatePending = true;
  } else if (!block->sealed) {
    llvm::PHINode *phi = createPhi(block, var);
    block->placeholders.emplace_back(var, phi);
    incompletePhis_.insert(phi);
    define(block, var, phi);
  } else if (block->preds.size() == 1) {
    // On a chain of single predecessors the definition, whether State holds it included,
    // carries over unchanged; a pending reload stays pending.
    Def &from = definition(block->preds.front(), var);
    if (from.inStatePending) {
      def.inStatePending = true;
    } else {
      llvm::Value *value = read(block->preds.front(), var);
      bool inState = block->preds.front()->defs[static_cast<unsigned>(var)].inState;
      define(block, var, value);
      def.inState = inState;
    }
  } else if (block->preds.empty()) {
    define(block, var, llvm::PoisonValue::get(varType(block->bb->getContext(), var)));
  } else if (stateHoldsOnEveryPath(block, var)) {
    // Where paths that each left the variable in State merge, State holds it too: no phi.
    def.inStatePending = true;
  } else {
    // Define the phi before reading the predecessors so that loops find it and terminate.
    llvm::PHINode *phi = createPhi(block, var);
    define(block, var, phi);
    llvm::Value *value = addPhiOperands(block, var, phi);
    define(block, var, value);
  }
  return def;
}

bool RegisterFile::stateHoldsOnEveryPath(Block *block, Var var) {
  // A search backwards that emits nothing. A block seen again is a cycle (or a second path to
  // a block the search already checks): it adds no definition of its own, so it is taken to
  // hold; the answer is the conjunction over everything reached. The budget bounds the search
  // in large functions; running out answers no, which only costs a phi and a store.
  llvm::SmallPtrSet<Block *, 16> seen;
  llvm::SmallVector<Block *, 16> work{block};
  unsigned budget = 64;
  while (!work.empty()) {
    Block *at = work.pop_back_val();
    const Def &def = at->defs[static_cast<unsigned>(var)];
    if (def.defined()) {
      if (def.inStatePending || def.inState)
        continue;
      return false;
    }
    if (at == entry_ || !seen.insert(at).second)
      continue;
    if (!at->sealed || at->preds.empty() || budget-- == 0)
      return false;
    work.append(at->preds.begin(), at->preds.end());
  }
  return true;
}

llvm::Value *RegisterFile::addPhiOperands(Block *block, Var var, llvm::PHINode *phi) {
  for (Block *pred : block->preds)
    phi->addIncoming(read(pred, var), pred->bb);
  return tryRemoveTrivialPhi(phi);
}

llvm::Value *RegisterFile::tryRemoveTrivialPhi(llvm::PHINode *phi) {
  if (incompletePhis_.contains(phi))
    return phi;
  llvm::Value *same = nullptr;
  for (llvm::Value *incoming : phi->incoming_values()) {
    if (incoming == same || incoming == phi)
      continue;
    if (same)
      return phi;   // merges two different values: not trivial
    same = incoming;
  }
  if (!same)
    same = llvm::PoisonValue::get(phi->getType());

  llvm::SmallVector<llvm::PHINode *, 4> phiUsers;
  for (llvm::User *user : phi->users())
    if (auto *userPhi = llvm::dyn_cast<llvm::PHINode>(user); userPhi && userPhi != phi)
      phiUsers.push_back(userPhi);
  // Definitions still holding the phi follow the replacement through replacements_.
  phi->replaceAllUsesWith(same);
  phi->removeFromParent();
  removedPhis_.push_back(phi);
  replacements_[phi] = same;
  for (llvm::PHINode *user : phiUsers)
    if (user->getParent())
      tryRemoveTrivialPhi(user);
  // `same` may itself be one of the users that turned trivial just now (Braun et al. return
  // it unchanged, which then hands out a removed phi): return what replaced it.
  return current(same);
}

llvm::PHINode *RegisterFile::createPhi(Block *block, Var var) {
  llvm::Type *type = varType(block->bb->getContext(), var);
  llvm::BasicBlock *bb = block->bb;
  auto *phi = llvm::PHINode::Create(type, 2, varName(var));
  phi->insertInto(bb, bb->getFirstNonPHIIt());
  return phi;
}

llvm::Value *RegisterFile::createFieldPointer(llvm::ArrayRef<unsigned> indices,
                                              const llvm::Twine &name) {
  LiftBuilder &ir = builderAtEnd(entry_->bb);
  llvm::SmallVector<llvm::Value *, 3> gepIndices{ir.getInt32(0)};
  for (unsigned index : indices)
    gepIndices.push_back(ir.getInt32(index));
  return ir.CreateInBoundsGEP(stateType_, statePtr_, gepIndices, name);
}

llvm::Value *RegisterFile::fieldPointer(Var var) {
  llvm::Value *&pointer = varPointers_[static_cast<unsigned>(var)];
  if (pointer)
    return pointer;
  if (isArrayVar(var))
    pointer = createFieldPointer({stateFieldOf(var), stateIndexOf(var)},
                                 llvm::Twine(varName(var)) + ".ptr");
  else
    pointer = createFieldPointer({stateFieldOf(var)}, llvm::Twine(varName(var)) + ".ptr");
  return pointer;
}

llvm::Value *RegisterFile::fieldPointer(HoistStateField field) {
  llvm::Value *&pointer = fieldPointers_[field];
  if (!pointer)
    pointer = createFieldPointer({static_cast<unsigned>(field)},
                                 llvm::StringRef(stateField(field).name).lower() + ".ptr");
  return pointer;
}

llvm::Value *RegisterFile::loadConfiguration(llvm::IRBuilderBase &ir, HoistStateField field) {
  llvm::Type *type = stateType_->getElementType(field);
  return ir.CreateLoad(type, fieldPointer(field), llvm::StringRef(stateField(field).name).lower());
}

llvm::Value *RegisterFile::loadFromState(Block *block, Var var) {
  llvm::Value *ptr = fieldPointer(var);   // before positioning: it may emit in the entry
  LiftBuilder &ir = builderAtEnd(block->bb);
  if (isFlagVar(var))
    return ir.CreateICmpNE(ir.CreateLoad(ir.getInt8Ty(), ptr), ir.getInt8(0), varName(var));
  // A YMM field is [4 x i64] in State; the variable loads it as <4 x i64>, the same bytes, at
  // the field's alignment rather than the vector's.
  return ir.CreateAlignedLoad(varType(ir.getContext(), var), ptr, stateAlignment(ir.getContext(), var),
                              varName(var));
}

void RegisterFile::reloadAll(Block *block) {
  // Loaded only when read: most of the 93 variables are not read before the next call.
  for (Def &def : block->defs) {
    def = Def{};
    def.inStatePending = true;
  }
}

void RegisterFile::storeAll(Block *block) {
  for (unsigned i = 0; i < NumVars; ++i) {
    if (!mayWrite_[i])
      continue;   // never written: State holds it
    Var var = static_cast<Var>(i);
    Def &def = definition(block, var);
    if (def.inStatePending || def.inState)
      continue;   // unchanged since State was last read: it holds this value already
    llvm::Value *value = read(block, var);
    // The field's address first: the first one of a function is emitted in the entry block.
    llvm::Value *pointer = fieldPointer(var);
    LiftBuilder &ir = builderAtEnd(block->bb);
    if (isFlagVar(var))
      value = ir.CreateZExt(value, ir.getInt8Ty());
    ir.CreateAlignedStore(value, pointer, stateAlignment(ir.getContext(), var));
  }
}

} // namespace hoist
