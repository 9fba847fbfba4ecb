// Runs a module pipeline of translate's own passes with the standard analyses registered.
#pragma once

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace hoist {

void runModulePasses(llvm::Module &module, llvm::ModulePassManager &pipeline);

} // namespace hoist
