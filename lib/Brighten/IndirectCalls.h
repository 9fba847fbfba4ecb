// Calls through a register the lifter could not resolve (`__hoist_call(state, mem, target)`)
// whose target is an import's address in every run: `mov rbx, [__imp_WriteConsoleA]` before
// a loop, `call rbx` in it; `mov rax, [rip+puts@GOT]; call rax`.
//
// The lifter sees one block at a time; brightening sees the function with its State local.
// A resolution probe (Brighten.cpp) is the flat copy with each unresolved call modeled as a
// callee that keeps the calling convention (callee-saved registers and the stack survive it)
// and reports its target to a marker. If after simplification every marker's target is the
// address of an import (ImportSlots.h), the model was right for every call: each call's
// target depends only on what ran before it, and what ran before it were imports, which keep
// the convention. The lifted function's calls then become calls of the imports, as if the
// lifter had resolved them, and brightening goes on as usual.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>

#include <optional>
#include <vector>

namespace hoist {

/// `i64 (i64 ordinal, i64 target)`: the modeled callee of a resolution probe.
inline constexpr const char *ModeledCallName = "__hoist_modeled_call";

/// Whether `call` is an unresolved call of lifted code: `__hoist_call(state, mem, target)`.
bool isUnresolvedCall(const llvm::CallBase &call);

/// The unresolved calls of `function` (lifted, or its flat copy), in instruction order.
std::vector<llvm::CallBase *> unresolvedCalls(llvm::Function &function);

/// Emits in a flat copy, for the unresolved call `call` (number `ordinal` of
/// unresolvedCalls), the model of a conventional callee reporting the target. The caller
/// erases `call`.
void emitUnresolvedCallModel(llvm::CallBase &call, unsigned ordinal);

/// The import each of the `count` modeled calls in the simplified `probe` calls, by ordinal;
/// nullopt unless every call that is left calls an import, and the same one wherever the
/// optimizer duplicated it, and none was proved unreachable (then its target is unknown).
std::optional<std::vector<llvm::Function *>> modeledCallTargets(llvm::Function &probe,
                                                                unsigned count);

/// Replaces the unresolved calls of `lifted` by calls of `targets` (by ordinal): the lifted
/// code's call of an import, RIP already set to the target.
void callTargetsDirectly(llvm::Function &lifted, llvm::ArrayRef<llvm::Function *> targets);

} // namespace hoist
