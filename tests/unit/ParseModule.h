// Textual IR for unit tests that build their input with the IR parser.
#pragma once

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>

namespace hoist::test {

/// The module `text` describes, or null after recording a test failure with the parser's
/// message (line and column), so a typo in a test's IR reads as such, not as a crash.
inline std::unique_ptr<llvm::Module> parseModule(llvm::StringRef text,
                                                 llvm::LLVMContext &context) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, error, context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream out(message);
    error.print("test", out);
    ADD_FAILURE() << message;
  }
  return module;
}

} // namespace hoist::test
