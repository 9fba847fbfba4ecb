// OffsetBounds: how far a variable offset into the local stack, or a length, can reach, for
// SplitStack (SplitStack.h): an access whose offset varies counts as the bytes between its
// smallest and largest offset.
//
// Two sources, both ScalarEvolution's, asked lazily (most stacks have no variable offset):
//   - the value's signed range (`n & 31`: 0 to 31);
//   - for a loop's induction variable {start,+,step} that an access of the stack uses on every
//     iteration, start's smallest value up to the largest value it has in the last iteration
//     (start + step * the backedge-taken count). ScalarEvolution's own range of it is often
//     the full set, since the loop may wrap when it is entered with start past its end
//     (fill_sum's scalar tail after the vector loop, `i == n` to exit). But the walk from
//     start would then go past the stack's end before it wraps around, and the access done
//     there on every iteration is outside its alloca: undefined behaviour in LLVM IR, as it
//     would have read outside the frame in the program. A defined run stays within.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/PassManager.h>

#include <cstdint>
#include <optional>

namespace hoist {

/// Signed values from `lowest` to `highest`, both included.
struct ValueRange {
  int64_t lowest, highest;
};

class OffsetBounds {
public:
  OffsetBounds(llvm::Function &function, llvm::FunctionAnalysisManager &analyses)
      : function_(function), analyses_(analyses) {}

  /// The range of the integer `value`, or nullopt if unbounded. When `accesses` (loads and
  /// stores) use `value` as an offset into the stack, a loop's induction variable is bounded
  /// by its walk (above) if one of them runs on every iteration.
  std::optional<ValueRange> of(llvm::Value *value,
                               llvm::ArrayRef<llvm::Instruction *> accesses = {});

  /// The function changed: ask ScalarEvolution again.
  void invalidate();

private:
  llvm::ScalarEvolution &evolution();
  std::optional<ValueRange> inductionWalk(const llvm::SCEV *value,
                                         llvm::ArrayRef<llvm::Instruction *> accesses);

  llvm::Function &function_;
  llvm::FunctionAnalysisManager &analyses_;
  llvm::ScalarEvolution *evolution_ = nullptr;
};

} // namespace hoist
