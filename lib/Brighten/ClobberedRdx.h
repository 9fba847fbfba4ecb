// RDX after a call whose callee returns RAX alone. The ABI leaves RDX undefined there, and a
// brightened caller must not take the value it had before the call for what the callee put
// there: the callee may return a 16-byte struct in RAX:RDX whose second half the signature
// does not show. A typed call leaves RDX holding an opaque marker instead, which
//   - the signature probe tells apart from a value the function itself put in RDX, so that
//     forwarding a callee's leftover does not make RDX a result (readSignatureProbe);
//   - declines the function where it is computed with: the caller reads a second result the
//     callee's signature does not have (whyReadsClobberedRdx);
//   - becomes `freeze poison` once brightening is done, where only stores of it and call
//     arguments are left.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <string>

namespace hoist {

/// The marker's function: `i64 ()`, touching no memory.
inline constexpr const char *ClobberedRdxName = "__hoist_clobbered_rdx";
/// The same for RAX after a call whose callee returns nothing in it (void, or XMM0 alone).
/// Poison there would make a byte the caller merges into RAX afterwards (`mov 0x5c06(%rip),
/// %al` after `call transparent_crc`) poison too, and the optimizer then deleted the rest of
/// csmith's main as undefined behaviour; the marker keeps the merged byte and is the same
/// garbage as the machine's in the end.
inline constexpr const char *ClobberedRaxName = "__hoist_clobbered_rax";

/// A call of the marker at `builder`'s position, after the lifted call at `pc` (its hoist.pc).
llvm::Value *emitClobberedRdx(llvm::IRBuilder<> &builder, llvm::MDNode *pc);
llvm::Value *emitClobberedRax(llvm::IRBuilder<> &builder, llvm::MDNode *pc);

/// Whether `value` is the marker.
bool isClobberedRdx(const llvm::Value *value);
bool isClobberedRax(const llvm::Value *value);

/// Why `probe` (an optimized signature probe) computes with a clobbered RDX or RAX, naming the
/// call's address where the marker has one; nullopt when it only stores the marker, passes it
/// as an argument or reports it at the return (RAX's marker: above the low byte, or whole).
std::optional<std::string> whyReadsClobberedRdx(const llvm::Function &probe);

/// Replaces every marker in `module` by `freeze poison` and drops the declarations.
void replaceClobberedRdx(llvm::Module &module);

} // namespace hoist
