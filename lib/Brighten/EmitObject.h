// `hoist lift --emit obj`: the module compiled for the host by LLVM's code generator.
#pragma once

#include <llvm/IR/Module.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist {

/// Writes `module` as a relocatable object for the host (ELF on Linux) at -O2 code generation.
/// Sets the module's triple and data layout to the host's. With `forThisCpu`, the code is for
/// this machine's CPU and its features (a translated program runs where it was translated,
/// and lifted code may call x86 intrinsics such as AES rounds that need them); otherwise
/// for a generic x86-64. `level` is the code generator's (the differential check, which only
/// runs the code, compiles at None).
llvm::Error emitHostObject(llvm::Module &module, llvm::raw_pwrite_stream &out,
                           bool forThisCpu = false,
                           llvm::CodeGenOptLevel level = llvm::CodeGenOptLevel::Default);

} // namespace hoist
