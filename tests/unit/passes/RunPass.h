// Runs one function pass over @fn of a test module, as the pipeline would, and checks that
// the module still verifies.
#pragma once

#include <gtest/gtest.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist::test {

/// Runs `pass` on @fn of `module` with LLVM's function analyses; records a failure if the
/// module does not verify after it. Returns @fn.
template <typename Pass> llvm::Function &runOnFn(llvm::Module &module, Pass pass) {
  llvm::PassBuilder builder;
  llvm::FunctionAnalysisManager analyses;
  builder.registerFunctionAnalyses(analyses);
  llvm::Function &function = *module.getFunction("fn");
  pass.run(function, analyses);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  EXPECT_FALSE(llvm::verifyModule(module, &out)) << problems;
  return function;
}

} // namespace hoist::test
