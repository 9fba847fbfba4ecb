// Lifting x86-64 functions of an Image to LLVM IR.
//
// A lifted function is `void @fn_<hexaddr>(ptr noalias %state, ptr noalias %mem)`: it reads the
// registers it needs from the State (include/hoist/State.h) at entry, keeps them in SSA while it
// runs, and writes them back wherever something outside can observe them. Memory accesses are
// `getelementptr i8, ptr %mem, i64 addr` (with %mem null, addresses are host addresses).
//
// Control that leaves the lifted code goes through declared intrinsics, each called as
// `void @__hoist_X(ptr %state, ptr %mem, i64 address)` with the State already written back:
//   __hoist_call         a call; the callee's effects are read back from State on return
//   __hoist_ret          a return to the address popped
//   __hoist_jmp          a jump the lifter cannot follow (indirect, or out of lifted code)
//   __hoist_unsupported  an instruction without semantics (a diagnostic says which), or a
//                        case of one that only run-time values reveal (xsave of AVX-512
//                        state); the runtime does the instruction, the code goes on after it
//   __hoist_trap         a fault the instruction raises (ud2, divide error, ...)
#pragma once

#include "hoist/Image.h"
#include "hoist/Options.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace hoist {

class DiagnosticSink;

struct LiftStats {
  uint64_t instructionsLifted = 0;
  uint64_t blocks = 0;
  uint64_t functions = 0;
  std::map<std::string, uint64_t> unsupported;   ///< mnemonic -> occurrences
};

/// "fn_401000": the name of the lifted function at `address`.
std::string liftedFunctionName(uint64_t address);

class Lifter {
public:
  Lifter(const Image &image, llvm::LLVMContext &context, DiagnosticSink &diagnostics,
         LiftOptions options = {});
  ~Lifter();

  /// Lifts the function starting at `entry` (once; a second request returns the same function).
  llvm::Expected<llvm::Function *> liftFunction(uint64_t entry);

  llvm::Module &module();
  std::unique_ptr<llvm::Module> takeModule();
  const LiftStats &stats() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace hoist
