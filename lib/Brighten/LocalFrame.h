// The body every brightened function (and every signature probe) shares: the lifted function
// inlined against a State and a stack that are local to the caller, so that SROA can dissolve
// both once PromoteStack has turned stack addresses back into pointers.
#pragma once

#include "Brighten/CallShim.h"
#include "Brighten/CallingConvention.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>

namespace hoist {

/// The local stack's size, unless the function's frame needs more; the return address sits
/// at its top.
inline constexpr uint64_t LocalStackBytes = 64 * 1024;
/// The largest local stack a function is given (Linux's default stack limit): a frame larger
/// still declines the function.
inline constexpr uint64_t MaxLocalStackBytes = 8 * 1024 * 1024;
/// Function attribute of a flat copy whose local stack is larger than LocalStackBytes: its
/// size in bytes.
inline constexpr const char *LocalStackBytesAttribute = "hoist-local-stack-bytes";
/// The local stack's size for `flat` (LocalStackBytesAttribute, else LocalStackBytes).
uint64_t localStackBytes(const llvm::Function &flat);
/// The local stack, a multiple of LocalStackBytes, that holds the frame `probe` addressed below
/// its local stack of `current` bytes (PromoteStack's StackOutsideAttribute, negative); nullopt
/// if the probe did not, or if MaxLocalStackBytes does not hold it either.
std::optional<uint64_t> largerLocalStack(const llvm::Function &probe, uint64_t current);
/// Stack arguments a brightened function may take: 8-byte slots above the return address
/// (and Win64's home area), as a caller leaves them. A struct passed by value in memory takes
/// a slot per eight bytes (zstd hands on 48-byte parameter blocks, two or three per call).
inline constexpr unsigned StackArgumentSlots = 32;
/// The stack slots a call whose callee is unknown passes (a call through a pointer, a
/// variadic call without a format): a callee taking more is brightened only where nothing
/// calls it through a pointer (TakenAddresses.h). Passing all StackArgumentSlots at every
/// such call made brightening sed a third slower.
inline constexpr unsigned HandedOnStackSlots = 8;
/// The return address pushed by the brightened function's "call": not a code address, so a
/// `ret` to anything else is detectably a return elsewhere (it traps).
inline constexpr uint64_t ReturnSentinel = 0x5e471e1b00000000ull;
/// Metadata kind marking the local stack alloca for PromoteStackPass.
inline constexpr const char *StackMetadataKind = "hoist.stack";
/// ... and the caller's area above it (home area, stack arguments), a separate alloca that
/// continues the stack's addresses.
inline constexpr const char *CallerAreaMetadataKind = "hoist.stack.caller";
inline uint64_t callerAreaBytes(CallingConvention convention) {
  return homeAreaBytes(convention) + 8 * StackArgumentSlots;
}
/// Called with the caller's area after the body, so that SROA keeps the area (and the stack
/// arguments stored there) until PromoteStack has found every access to it, which may take a
/// few rounds (RSP comes out of the State alloca only after the first SROA).
inline constexpr const char *CallerAreaKeeper = "__hoist_keep_caller_area";
/// Removes the keeper calls of `module`: the next fixpoint dissolves the areas.
void releaseCallerAreas(llvm::Module &module);
/// The caller's area of a brightened function or probe, if it is still there.
llvm::AllocaInst *findCallerArea(llvm::Function &function);

/// Called in a flat copy where lifted code jumps to an unresolved target (`__hoist_jmp`,
/// which also ends a failed return check), with the jump's address. A probe in which it
/// survives optimization declines the function; in a brightened function it becomes a trap.
inline constexpr const char *UnresolvedJumpMarker = "__hoist_unresolved_jump";
/// The marker's address where the function's `ret` went elsewhere than to its caller (the
/// return address replaced: push/ret, a return into another function).
inline constexpr uint64_t ReturnedElsewhere = ~uint64_t(0);
llvm::FunctionCallee unresolvedJumpMarker(llvm::Module &module);
/// Declares in `module` the marker `name`, `void (i64 x integerParameters)`: a call that stands
/// for a path's outcome until brightening decides (kept where reachable, removable where not,
/// touching no memory the code has).
llvm::FunctionCallee declareMarker(llvm::Module &module, llvm::StringRef name,
                                   unsigned integerParameters);
/// Replaces every call of the marker left in `module` by llvm.trap, and removes it.
void replaceUnresolvedJumpMarkers(llvm::Module &module);

/// The address of the machine instruction `instruction` (or, for one the lifter added without
/// one, the closest before it in its block or at the end of its single predecessor); 0 if none.
uint64_t pcOf(const llvm::Instruction &instruction);

/// Why `lifted` cannot be brightened by this slice (naming the instruction's address), or
/// nullopt: it must only leave through `ret`, make only calls `whyNotCallable` accepts
/// (returning nullopt; else the reason), and use %mem only as a flat address base.
std::optional<std::string> whyNotBrightenable(
    const llvm::Function &lifted,
    llvm::function_ref<std::optional<std::string>(const llvm::CallBase &)> whyNotCallable);

/// What a flat copy makes of an unresolved call (`__hoist_call`).
enum class UnresolvedCallForm {
  Modeled,        ///< the model of a resolution probe (IndirectCalls.h)
  ThroughPointer, ///< a call through the target's code pointer (emitPointerCall)
};

/// A copy of `lifted` (internal, named "<name>.flat") in which every `gep i8, %mem, X` is
/// `inttoptr X`, `ret`'s __hoist_ret call is gone (memory is the process's own), every
/// call of a function in `callees` is the typed call of its brightened (or library) version,
/// and every unresolved call is in `form`.
llvm::Function *makeFlatCopy(llvm::Function &lifted, const KnownCallees &callees,
                             CallingConvention convention, UnresolvedCallForm form);

struct RegisterInput {
  HoistStateField field;
  unsigned element;      ///< for YMM: the register number
  llvm::Value *value;    ///< i64 for a GPR or FS/GS base; for a YMM, its low bits (any width)
};

/// Emits at `builder`'s position a local State and stack initialized from `inputs` (every other
/// register uninitialized; DF clear, MXCSR and the x87 control word at their reset values as
/// both ABIs require at a call), RSP at the sentinel return address, then inlines a call of
/// `flat` and checks that it returned to the sentinel (else llvm.trap). `stackArguments` (i64
/// each, at most StackArgumentSlots) fill the slots above the return address. Leaves `builder`
/// after the check and returns the State alloca to read results from.
llvm::Expected<llvm::AllocaInst *> emitLocalFrameCall(llvm::IRBuilder<> &builder,
                                                      llvm::Function &flat,
                                                      llvm::ArrayRef<RegisterInput> inputs,
                                                      llvm::ArrayRef<llvm::Value *> stackArguments,
                                                      CallingConvention convention);

/// A pointer to State field `field` (element `element` of an array field) in `state`.
llvm::Value *stateFieldPointer(llvm::IRBuilder<> &builder, llvm::Value *state,
                               HoistStateField field, unsigned element = 0);

} // namespace hoist
