// InvariantStackGuard: the stack protector's guard is one value for a thread's whole life.
//
// glibc writes `tcbhead_t.stack_guard` (%fs:0x28) once, when it sets the thread up and before
// any of the program's code runs, and nothing writes it afterwards. In a brightened function
// (attribute "hoist-brightened") this pass marks the loads of the guard through the thread
// pointer `!invariant.load`, so that the optimizer takes a reload after a call for the value
// loaded at entry. Where the frame's copy of the guard became an SSA value (a devirtualized
// interpreter's frame gone), the check `copy == guard` then folds away with the dead
// `__stack_chk_fail` path; where the frame stays in memory the check compares its slot with
// the guard as before.
#pragma once

#include <llvm/IR/PassManager.h>

namespace hoist {

class InvariantStackGuardPass : public llvm::PassInfoMixin<InvariantStackGuardPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

} // namespace hoist
