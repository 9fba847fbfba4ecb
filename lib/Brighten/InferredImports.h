// Imports that no header declares (ImportPrototypes.h) that a brightened function calls,
// directly or through their import slot (ImportSlots.h, IndirectCalls.h).
//
// Their prototype is inferred from the caller: a call passes the integer argument registers
// the caller sets up before it. A signature probe of the caller (Signature.h) in which each
// such call reports the argument registers shows, after simplification, which of them still
// hold the caller's own entry values there: those it did not set up. The import takes the
// registers up to the last one set up (one below it that was not set up is passed through,
// as `f(x + 1, y)` passes its own `y`) and returns RAX: `i64 @X(i64, ...)`, in the binary's
// convention. A call that sets up an XMM argument register declines (a floating-point
// argument's type and position are not inferred); an argument passed through unchanged after
// the last one set up, or on the stack, is not seen.
#pragma once

#include "Brighten/CallShim.h"
#include "Brighten/CallingConvention.h"

#include <llvm/IR/Function.h>

#include <map>
#include <set>
#include <string>
#include <variant>

namespace hoist {

/// On an import's lifted declaration (`import.X`): brightening inferred its prototype, so its
/// slot holds a function (ImportSlots.h).
inline constexpr const char *InferredPrototypeAttribute = "hoist-inferred-prototype";

/// Whether a call of `import` may have its prototype inferred: an import (`hoist-import`)
/// that no header declares.
bool needsInferredPrototype(const llvm::Function &import);

/// For each of `imports`, a stand-in that a flat copy (makeFlatCopy) calls instead of it,
/// with the integer argument registers and XMM0-7 at the call as its arguments: a callee
/// that keeps the convention, with unknown memory effects (a resolution probe's model).
KnownCallees argumentReporters(llvm::Module &module,
                               const std::set<const llvm::Function *> &imports,
                               CallingConvention convention);

/// Reads the simplified probe of such a flat copy: for each import, how many integer
/// argument registers its calls pass (the most of any call), or why its prototype cannot be
/// inferred.
std::map<const llvm::Function *, std::variant<unsigned, std::string>>
readArgumentReports(llvm::Function &probe, const KnownCallees &reporters,
                    CallingConvention convention);

/// Deletes the stand-ins once their probes are gone.
void eraseArgumentReporters(const KnownCallees &reporters);

} // namespace hoist
