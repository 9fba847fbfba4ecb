// Calls between brightened functions, and to library functions by name. A lifted call
// `@X(state, mem)` passes the whole machine; once X has a signature (or an import has a
// known prototype), the call in a caller's flat copy reads just the argument registers and
// stack slots that signature names, calls the typed function, writes the result to RAX (and
// RDX) or XMM0 and pops the return address, as the callee's `ret` would.
#pragma once

#include "Brighten/CallingConvention.h"
#include "Brighten/ImportPrototypes.h"
#include "Brighten/Signature.h"

#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

#include <map>
#include <optional>
#include <string>
#include <variant>

namespace hoist {

/// What a lifted call becomes: a call of `function`, whose arguments come from where
/// `signature` says (in the binary's convention) and whose LLVM type says how they are passed.
struct KnownCallee {
  llvm::Function *function = nullptr;
  Signature signature;
  /// Set for a variadic library function whose calls tell what they pass (printf's format,
  /// open's flags): the signature is its fixed parameters', and each call it may be called
  /// from has its own, by the call's address (VariadicCalls.h).
  std::optional<VariadicRule> variadic = std::nullopt;
  std::map<uint64_t, Signature> callSites = {};

  /// The signature `call` (a lifted call of this callee) passes, or null for a variadic
  /// callee's call whose arguments are not known.
  const Signature *signatureAt(const llvm::CallBase &call) const;
};

/// Keyed by the function lifted code calls: a lifted `X` or `import.X`.
using KnownCallees = std::map<const llvm::Function *, KnownCallee>;

/// The LLVM type of a function with `signature`: integers of the inferred widths, float or
/// double for XMM arguments, then the stack arguments; void or the result's type.
llvm::FunctionType *functionTypeFor(const Signature &signature, llvm::LLVMContext &context);

/// Emits before `call` (a lifted call in a flat copy, whose first argument is the State) the
/// typed call of `callee` (with the signature `callee.signatureAt(call)`, which must be known)
/// and the return's effects. The caller erases `call`.
/// `entryRsp` is RSP at the caller's entry (its return address): a stack slot at or above it is
/// the caller's own, which a call (not a tail call) does not pass.
void emitTypedCall(llvm::CallBase &call, const KnownCallee &callee, CallingConvention convention,
                   llvm::Value *entryRsp);

/// Emits before `call` (a lifted call in a flat copy) a call of `model` with `arguments`,
/// standing for a callee that keeps the calling convention: its i64 result is RAX (and XMM0),
/// and it returns to the address the call pushed. The caller erases `call`.
void emitModeledCall(llvm::CallBase &call, llvm::FunctionCallee model,
                     llvm::ArrayRef<llvm::Value *> arguments);

/// Emits before `call` (an unresolved call `__hoist_call(state, mem, target)` in a flat copy)
/// the call through the target's code pointer (CodePointers.h), at `insertBefore` (else before
/// `call`). The callee's prototype is unknown, so the call passes what any callee of the SysV
/// convention may read: RDI..R9, XMM0..XMM7 whole, and HandedOnStackSlots stack slots as
/// emitTypedCall passes them, as a variadic call (AL = 8 bounds the vector registers a
/// variadic callee saves); and it takes back what any may return: RAX, RDX, XMM0 and XMM1.
/// `call` may also be an unresolved jump (`__hoist_jmp`) with RSP at the caller's return
/// address: a tail call. The caller erases `call`.
void emitPointerCall(llvm::CallBase &call, llvm::Value *entryRsp,
                     llvm::Instruction *insertBefore = nullptr);

/// Whether `value` is element `index` (0 RAX, 1 RDX, 2 XMM0, 3 XMM1) of what a call
/// emitPointerCall made returned.
bool isPointerCallResult(const llvm::Value *value, unsigned index);

/// Whether `use` passes a stack slot to a call emitPointerCall made, or a stack argument to a
/// typed call (emitTypedCall). The slots are the caller's frame, where its saved registers lie
/// too (`push %rbx`, `push %rax` to align the stack): a callee reads its stack arguments, which
/// the caller wrote, never those; a brightened callee that hands its own stack arguments on to
/// a call through a pointer (`lzma_free` calling the allocator's `free`) takes them all.
bool isPointerCallStackSlot(const llvm::Use &use);

/// The external declaration of the library function `name` imported from `library` (a
/// DLL; empty for an ELF import) with its C prototype, called in `convention` (the
/// binary's: `win64cc` for a DLL's function), and the registers a caller in `convention`
/// passes its arguments in; or why it cannot be called.
std::variant<KnownCallee, std::string> libraryCallee(llvm::Module &module, llvm::StringRef name,
                                                    llvm::StringRef library,
                                                    CallingConvention convention);

/// As libraryCallee, for a function whose prototype was inferred (InferredImports.h): it
/// takes the first `integerArguments` integer argument registers as i64 and returns i64.
std::variant<KnownCallee, std::string> inferredLibraryCallee(llvm::Module &module,
                                                            llvm::StringRef name,
                                                            llvm::StringRef library,
                                                            unsigned integerArguments,
                                                            CallingConvention convention);

} // namespace hoist
