// SplitStack: the local stack of a brightened function, one 64 KiB alloca (LocalFrame.h), cut
// into one alloca per group of bytes that are accessed together.
//
// Once a pointer into the stack is given to a call (`&written` to WriteConsoleA), LLVM takes
// the whole alloca for escaped: SROA leaves it alone and every store to it stays, so the
// registers a function spilled there (or, in a function the concolic lifter inlined helpers
// into, the caller's locals, such as a VM's guest registers) stay in memory across the call.
// But the callee only reaches what its effects say (ImportEffects.h): the bytes it writes
// through the pointer, and for a pointer it reads, the bytes from there up (the C library
// reads strings and buffers forward). When every use of the stack is at a constant offset
// (loads, stores, memory intrinsics, calls of imports whose effects are known), the byte
// ranges used together are merged and each group becomes an alloca of its own: the groups
// nothing hands out are SROA's again. A length or a gep's offset that varies counts as far
// as ScalarEvolution bounds it (`memset(buffer, c, n & 31)`, `buffer[i]` in a loop up to n):
// a spill beside a buffer given to memset is a value again. Any other use (an unbounded or
// possibly negative offset, a stack address stored, compared or given to a function whose
// effects are unknown) keeps the stack whole.
#pragma once

#include <llvm/IR/PassManager.h>

namespace hoist {

class SplitStackPass : public llvm::PassInfoMixin<SplitStackPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

} // namespace hoist
