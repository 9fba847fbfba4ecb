// A load of the same pointer as an earlier load on a straight path, with nothing between them
// that may write that memory, is the earlier load's value. LLVM forwards it only where alias
// analysis separates every store between the two, and BasicAA cannot separate a store into a
// function's own frame from a pointer made from an integer (`inttoptr`, all a lifted function
// has) once the frame's address escapes anywhere in the function, even later: tar's
// `cmpb $0x56, 0x9c(%rdi); ja` checks a byte, writes a local, then `movzbl 0x9c(%rdi), %eax`
// reloads it for the jump table, whose default (an unresolved jump in brightened code) then
// stays alive. Here a store counts as not writing the loaded memory when it writes an alloca
// the loaded pointer cannot reach: a pointer the function was given, or an integer computed
// from its arguments, existed before the alloca and never points into it; a pointer loaded
// from memory, returned by a call or made from another integer can only once the alloca has
// escaped (PointerMayBeCapturedBefore the store).
#pragma once

#include <llvm/IR/PassManager.h>

namespace hoist {

class ForwardReloadsPass : public llvm::PassInfoMixin<ForwardReloadsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace hoist
