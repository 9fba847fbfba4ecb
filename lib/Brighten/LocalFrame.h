// The body every brightened function (and every signature probe) shares: the lifted function
// inlined against a State and a stack that are local to the caller, so that SROA can dissolve
// both once PromoteStack has turned stack addresses back into pointers.
#pragma once

#include "Brighten/CallingConvention.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>

namespace hoist {

/// The local stack's size; the return address sits at its top (below the home area).
inline constexpr uint64_t LocalStackBytes = 64 * 1024;
/// The return address pushed by the brightened function's "call": not a code address, so a
/// `ret` to anything else is detectably a return elsewhere (it traps).
inline constexpr uint64_t ReturnSentinel = 0x5e471e1b00000000ull;
/// Metadata kind marking the local stack alloca for PromoteStackPass.
inline constexpr const char *StackMetadataKind = "hoist.stack";

/// Why `lifted` cannot be brightened by this slice (naming the instruction's address), or
/// nullopt: it must only leave through `ret`, and use %mem only as a flat address base.
std::optional<std::string> whyNotBrightenable(const llvm::Function &lifted);

/// A copy of `lifted` (internal, named "<name>.flat") in which every `gep i8, %mem, X` is
/// `inttoptr X` and `ret`'s __hoist_ret call is gone: memory is the process's own.
llvm::Function *makeFlatCopy(llvm::Function &lifted);

struct RegisterInput {
  HoistStateField field;
  unsigned element;      ///< for YMM: the register number
  llvm::Value *value;    ///< i64 for a GPR or FS/GS base; for a YMM, its low bits (any width)
};

/// Emits at `builder`'s position a local State and stack initialized from `inputs` (every other
/// register uninitialized; DF clear, MXCSR and the x87 control word at their reset values as
/// both ABIs require at a call), RSP at the sentinel return address, then inlines a call of
/// `flat` and checks that it returned to the sentinel (else llvm.trap). Leaves `builder` after
/// the check and returns the State alloca to read results from.
llvm::Expected<llvm::AllocaInst *> emitLocalFrameCall(llvm::IRBuilder<> &builder,
                                                      llvm::Function &flat,
                                                      llvm::ArrayRef<RegisterInput> inputs,
                                                      CallingConvention convention);

/// A pointer to State field `field` (element `element` of an array field) in `state`.
llvm::Value *stateFieldPointer(llvm::IRBuilder<> &builder, llvm::Value *state,
                               HoistStateField field, unsigned element = 0);

} // namespace hoist
