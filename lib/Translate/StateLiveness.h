// Backward liveness of State's bytes in a lifted function: a byte is live at a point when some
// path from there reads it (a load, a lifted callee by its summary, anything else that reaches
// State) before a store overwrites it; everything is live at a return, where the caller reads
// State. ClobberedStateStores erases the stores nothing reads; PartlyDeadStateStores moves a
// store off the branches where nothing reads it.
#pragma once

#include "Translate/LiftedCallEffects.h"

#include <llvm/ADT/BitVector.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <optional>
#include <vector>

namespace hoist {

class StateLiveness {
public:
  StateLiveness(llvm::Function &function, const StateEffectsMap *effects);

  void solve();

  /// The stores whose bytes are all dead right after them.
  std::vector<llvm::StoreInst *> deadStores();

  /// The bytes live at the entry of `block`; nullptr for a block not reachable from the entry.
  const llvm::BitVector *liveIn(llvm::BasicBlock *block) const;

  /// The bytes a simple store writes, or nullopt when it is not a store to a known field.
  std::optional<llvm::BitVector> bytesStored(llvm::StoreInst &store) const;

  /// Updates `live` (the bytes live after `instruction`) to those live before it; appends
  /// `instruction` to `dead` when it is a store of bytes none of which is live.
  void apply(llvm::Instruction &instruction, llvm::BitVector &live,
             std::vector<llvm::StoreInst *> *dead) const;

private:
  llvm::BitVector liveOut(llvm::BasicBlock &block) const;
  std::optional<llvm::BitVector> range(int64_t offset, uint64_t size) const;

  llvm::Function &function_;
  const llvm::Value *state_;
  const StateEffectsMap *effects_;
  const llvm::DataLayout &layout_;
  llvm::BitVector all_, none_;
  std::map<llvm::BasicBlock *, llvm::BitVector> liveIn_;
};

} // namespace hoist
