// PromoteStack: addresses computed from the local stack's integer address become pointers
// into the stack alloca again, so that SROA can turn the stack into SSA values.
//
// Brightening gives the lifted code RSP = ptrtoint(stack) + k, and its memory accesses are
// `inttoptr` of addresses derived from RSP. `inttoptr(ptrtoint(S) + X)` becomes
// `gep i8, S, X` when X is found by walking add, sub and disjoint or: the program only
// addresses its own frame through RSP, and a gep keeps the alloca visible to SROA. A constant
// offset past the stack's top is a gep into the caller's area (LocalFrame.h: home area, stack
// arguments); one outside both is not rewritten, the function gets the attribute
// "hoist-stack-outside" with that offset, and brightening declines it. So does any address
// computed at a constant offset below the stack (the lowest is kept): brightening probes such
// a function again with a larger local stack (LocalFrame.h, largerLocalStack). The same
// rewrite makes addresses computed from a brightened function's `ptr` parameters geps of the
// parameter.
#pragma once

#include <llvm/IR/PassManager.h>

namespace hoist {

inline constexpr const char *StackOutsideAttribute = "hoist-stack-outside";

class PromoteStackPass : public llvm::PassInfoMixin<PromoteStackPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

} // namespace hoist
