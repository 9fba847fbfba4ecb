// ExitingErrorCalls: glibc's `error(status, errnum, format, ...)` and `error_at_line` exit
// when `status` is not zero (error.h: "If STATUS is nonzero, terminate the program with
// `exit (STATUS)`"), so a call with a nonzero constant status never returns, as discovery
// already knows (Discover/NoReturn.h). gcc puts nothing after such a call; the lifted code
// goes on to the next address, another function's, and that unresolved jump declined the
// caller (`error (EXIT_TROUBLE, 0, ...)` in grep). This pass marks such calls of the library's
// `error` (a declaration, not a brightened function of the program's own that has the name)
// `noreturn`, and SimplifyCFG ends the path there.
#pragma once

#include <llvm/IR/PassManager.h>

namespace hoist {

class ExitingErrorCallsPass : public llvm::PassInfoMixin<ExitingErrorCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

} // namespace hoist
