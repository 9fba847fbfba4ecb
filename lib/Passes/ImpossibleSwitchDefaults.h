// A lifted jump table is a switch whose default leaves through __hoist_jmp (FunctionLifter:
// exact whatever the index is), and that exit writes every register back to State, so every
// register the loop around it holds stays live on the path. Usually the machine code bounded
// the index before the table (`cmp $0x17,%al; ja default; movzbl %al,%eax; jmp *table(,%rax,4)`)
// and the default cannot be taken, but LLVM does not see it: InstCombine turns the index
// `zext (trunc %x to i8)` into `and %x, 255` (narrowed further by known bits), and
// CorrelatedValuePropagation knows the bound of the `trunc` from the branch, not of the `and`.
// wc's character loop has such a table: its default kept guest rdx, rcx, rdi, r8 and r9 alive
// around the loop, 7% of wc's instructions (translate); in brightening the live default is an
// unresolved jump that declines the function (gcc -O1's 5-case switch). This pass asks
// LazyValueInfo for the range of the truncated value where the switch is (for a phi, on each
// incoming edge), removes the cases outside it, and makes the default unreachable when every
// value the selector can then take is a case.
#pragma once

#include <llvm/IR/PassManager.h>

namespace hoist {

class ImpossibleSwitchDefaultsPass : public llvm::PassInfoMixin<ImpossibleSwitchDefaultsPass> {
public:
  /// `removed`, if given, counts the defaults made unreachable (not the cases removed).
  explicit ImpossibleSwitchDefaultsPass(unsigned *removed = nullptr) : removed_(removed) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);

private:
  unsigned *removed_;
};

} // namespace hoist
