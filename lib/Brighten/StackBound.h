// StackBound: a brightened function's stack is an alloca of a fixed size (LocalFrame.h), and
// an address the code computes at a constant offset below it is found before brightening
// (PromoteStack.h, a larger local stack). A stack that grows by an amount the code computes
// (a variable-length array, alloca: `sub rsp, rax`) is not: past the alloca's bottom the
// brightened function would write into whatever lies below, with no warning. So every value
// an instruction writes into RSP from a register operand is checked against the bottom (the
// red zone above it), and a stack grown past it traps. Push, pop, call and ret move RSP by
// constants and need no check.
//
// While probes and the fixpoint run, the check is an opaque call (StackBoundMarker), so that
// a constant move past the bottom leaves its address for PromoteStack to find (and a larger
// local stack to be probed) instead of folding into a trap; once brightening has decided,
// the markers become the compare and the trap (replaceStackBoundMarkers).
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace hoist {

/// `void (i64 rspFromTop, i64 lowest)`: the RSP an instruction wrote, as an offset from the
/// local stack's top, must be at least `lowest`. The instruction's address is the call's
/// StackBoundMetadata.
inline constexpr const char *StackBoundMarker = "__hoist_stack_bound";
/// Metadata kind on a marker (and the trap it becomes), with the address of the instruction
/// that set RSP.
inline constexpr const char *StackBoundMetadata = "hoist.stack.bound";

/// Adds the marker after each value the lifted code in `function` writes into RSP from a
/// register operand (StackPointerWriteMetadata): RSP less than the red zone above the local
/// stack's bottom, `topOffset` bytes below `entryRsp`, is past it.
void boundStackGrowth(llvm::Function &function, llvm::Value &entryRsp, uint64_t topOffset);

/// The addresses of the instructions in `function` whose bound check the optimizer could not
/// decide: a stack grown by an amount known only at run time. Sorted, unique.
std::vector<uint64_t> undecidedStackBounds(const llvm::Function &function);

/// The lowest offset from the local stack's top, red zone included, that a constant move of
/// RSP in `probe` reaches past the bottom, or nullopt: a larger local stack holds it
/// (LocalFrame.h, largerLocalStack).
std::optional<int64_t> lowestConstantStackMove(const llvm::Function &probe);

/// Replaces every marker left in `module` by its check: a trap where RSP is past the bottom.
void replaceStackBoundMarkers(llvm::Module &module);

} // namespace hoist
