#include "Translate/RunPasses.h"

#include <llvm/Passes/PassBuilder.h>

namespace hoist {

void runModulePasses(llvm::Module &module, llvm::ModulePassManager &pipeline) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  pipeline.run(module, modules);
}

} // namespace hoist
