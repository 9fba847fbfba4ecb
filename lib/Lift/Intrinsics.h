// The functions lifted code calls where control leaves what Hoist could lift. Each is
// `void @__hoist_X(ptr %state, ptr %mem, i64 address)`; see include/hoist/Lifter.h.
#pragma once

#include <llvm/IR/Module.h>

namespace hoist {

/// Trap stays last: FunctionLifter keeps one declaration per kind in an array sized by it.
enum class Intrinsic { Call, Jmp, Unsupported, Trap };

/// On the `__hoist_jmp` after a call discovery found never returns (a noreturn callee, or a
/// call its function's unwind entry ends at): reached only if the callee returns after all,
/// where the machine code has nothing of this function to run.
inline constexpr const char *AfterNoReturnCallMetadata = "hoist.after-noreturn-call";

/// On the `__hoist_jmp` of a jump table's default when the table's end was inferred from its
/// entries (JumpTable::endInferred): reached by an index past the entries found, where the
/// machine code jumps to whatever it loads past the table. Its operand is the number of
/// entries.
inline constexpr const char *TableEndMetadata = "hoist.table-end";

const char *intrinsicName(Intrinsic intrinsic);
llvm::FunctionCallee getIntrinsic(llvm::Module &module, Intrinsic intrinsic);
/// A runtime intrinsic named by a semantic (`__hoist_cpuid`, ...), same signature.
llvm::FunctionCallee getRuntimeIntrinsic(llvm::Module &module, llvm::StringRef name);

} // namespace hoist
