// Registers and flags in SSA while lifting, after Braun et al., "Simple and Efficient
// Construction of Static Single Assignment Form" (CC 2013).
//
// Each block keeps its own definitions. A read with no local definition asks the predecessors:
// in a block whose predecessors are not all known yet (unsealed) it becomes a phi placeholder,
// completed when the block is sealed; trivial phis are removed as soon as they are complete.
// A read that reaches the function entry becomes a load from State in the entry block.
//
// Flags may be defined lazily by a FlagThunk; the flag's IR is built, at the end of the
// defining block, only when someone reads it.
#pragma once

#include "Arch/Flags.h"
#include "Arch/LiftBuilder.h"
#include "Arch/Registers.h"
#include "Arch/WrittenVars.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Support/Allocator.h>

#include <array>
#include <deque>
#include <memory>
#include <vector>

namespace hoist {

class RegisterFile {
public:
  struct Block;

  /// `entry` is the function's first block, where State is loaded; it has no predecessors.
  RegisterFile(llvm::BasicBlock *entry, llvm::Value *statePtr);
  ~RegisterFile();

  Block *entryBlock() const { return entry_; }
  Block *createBlock(llvm::BasicBlock *bb);
  /// Records the edge pred -> block; only before `block` is sealed.
  void addPredecessor(Block *block, Block *pred);
  /// No more predecessors will be added to `block`: completes its placeholder phis.
  void seal(Block *block);
  bool isSealed(const Block *block) const;
  llvm::BasicBlock *basicBlock(const Block *block) const;

  /// Only the variables in `vars` will be written (varsWrittenBy over the function): every
  /// other one is read from State where it is read, with no phi, and never stored back.
  /// Before anything is read; by default every variable may be written. Whether the
  /// assumption held is for the caller to check against written().
  void assumeOnlyWritten(const VarSet &vars) { mayWrite_ = vars; }
  /// The variables write() and writeFlags() defined so far.
  const VarSet &written() const { return written_; }

  /// The value of `var` at the end of `block` (for the block being lifted: at this point).
  llvm::Value *read(Block *block, Var var);
  void write(Block *block, Var var, llvm::Value *value);
  /// Defines every flag the thunk's operation sets, lazily.
  void writeFlags(Block *block, const FlagThunk &thunk);

  /// Defines every variable as a fresh load from State at the end of `block` (after a call
  /// or an intrinsic that may have changed it).
  void reloadAll(Block *block);
  /// Stores every variable's value at the end of `block` into State.
  void storeAll(Block *block);

  /// The address of a variable's State field. Each field's address is computed once, in the
  /// entry block, which dominates every use: one getelementptr per field and function instead
  /// of one per access.
  llvm::Value *fieldPointer(Var var);
  /// The same for a field that is no variable (RIP, XCR0), element 0 of an array field.
  llvm::Value *fieldPointer(HoistStateField field);
  /// A State field that is no variable (XCR0): read where it is used, never written back.
  llvm::Value *loadConfiguration(llvm::IRBuilderBase &ir, HoistStateField field);

  /// A client replaced every use of `from` with `to` (and keeps `from` alive until the lift
  /// ends): definitions and flag operands that hold `from` read as `to` from now on.
  /// Definitions are plain pointers, not value handles (a handle per register write cost 7%
  /// of the lift: a hash-map entry in the context each), so they follow replacements only
  /// through this map.
  void valueReplaced(llvm::Value *from, llvm::Value *to);

private:
  struct Def;
  /// The definition of `var` that reaches the end of `block` (Braun et al.'s readVariable,
  /// without emitting a load for a variable State holds).
  Def &definition(Block *block, Var var);
  /// Whether every path into `block` leaves `var` as State holds it (not written since the
  /// entry or the last reload), so that `block` can read it from State instead of a phi.
  bool stateHoldsOnEveryPath(Block *block, Var var);
  /// Sets `var`'s definition in `block` without counting it as written (phis, copies).
  void define(Block *block, Var var, llvm::Value *value);
  llvm::Value *addPhiOperands(Block *block, Var var, llvm::PHINode *phi);
  llvm::Value *tryRemoveTrivialPhi(llvm::PHINode *phi);
  llvm::PHINode *createPhi(Block *block, Var var);
  llvm::Value *loadFromState(Block *block, Var var);
  llvm::Value *createFieldPointer(llvm::ArrayRef<unsigned> indices, const llvm::Twine &name);
  /// What `value` stands for now: itself, or what replaced it (a removed trivial phi, or a
  /// value a client reported with valueReplaced), following chains of replacements.
  llvm::Value *current(llvm::Value *value) const;
  /// The one builder the RegisterFile emits with, positioned at the end of `bb` (before its
  /// terminator if it has one): a builder made per load, store and flag cost 1.6% of the raw
  /// lift. Whoever positions it uses it before anything else may position it again.
  LiftBuilder &builderAtEnd(llvm::BasicBlock *bb);

  /// Blocks (about 2.2 KiB each, one definition per variable) from a bump allocator rather
  /// than a malloc each; destroyed with the RegisterFile.
  llvm::SpecificBumpPtrAllocator<Block> blocks_;
  LiftBuilder builder_;
  std::deque<FlagThunk> thunks_;
  /// Trivial phis, unlinked but not deleted while lifting, so that no pointer a semantic or a
  /// definition still holds can dangle; deleted at the end when nothing uses them any more.
  std::vector<llvm::PHINode *> removedPhis_;
  /// What each removed phi (and each value a client replaced) was replaced with.
  llvm::DenseMap<llvm::Value *, llvm::Value *> replacements_;
  /// Whether valueReplaced was called: then any value may have a replacement, otherwise only
  /// removed phis (which have no parent block) do, and other values skip the look-up.
  bool clientReplaced_ = false;
  Block *entry_;
  llvm::Value *statePtr_;
  llvm::StructType *stateType_;
  llvm::DenseSet<llvm::PHINode *> incompletePhis_;
  std::array<llvm::Value *, NumVars> varPointers_{};
  std::array<llvm::Value *, HOIST_FIELD_COUNT> fieldPointers_{};
  VarSet mayWrite_ = VarSet().set();
  VarSet written_;
};

} // namespace hoist
