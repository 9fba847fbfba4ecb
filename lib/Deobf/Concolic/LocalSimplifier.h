// Simplifies the IR of each instruction right after it is lifted, so that concrete values
// stay constants: `xor ebx, ebx` reads ebx twice (two truncs), and only once the reads are
// recognized as one value does the xor fold to 0. A value found equal to an earlier one of
// the block, or a constant or operand it simplifies to, replaces the new instruction's uses
// (the caller is told, so that registers and flag thunks follow: RegisterFile::valueReplaced);
// the instruction stays, dead, for the optimizer to delete, so that no pointer to it dangles.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/DataLayout.h>

#include <vector>

namespace hoist {

/// The constant `value` is, where its lanes all come from constants through shuffles (an
/// xmm register zeroed by `pxor x, x` and read back out of the wider register it lives in),
/// else null. The memory model uses it for a store lifted before the simplifier ran.
llvm::Constant *constantLanes(llvm::Value *value);

class LocalSimplifier {
public:
  explicit LocalSimplifier(const llvm::DataLayout &layout) : layout_(layout) {}
  /// Simplifies the instructions of `bb` after `after` (all of them when null); `replaced`
  /// is called after each replaceAllUsesWith.
  void run(llvm::BasicBlock *bb, llvm::Instruction *after,
           llvm::function_ref<void(llvm::Value *from, llvm::Value *to)> replaced);

private:
  const llvm::DataLayout &layout_;
  llvm::BasicBlock *block_ = nullptr;
  /// The pure instructions of `block_` seen so far, by a hash of opcode, type and operands.
  llvm::DenseMap<unsigned, std::vector<llvm::Instruction *>> available_;
};

} // namespace hoist
