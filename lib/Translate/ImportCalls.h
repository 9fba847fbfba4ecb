// The bodies of the `import.NAME` functions lifted code calls, in a translated module: each
// reads the argument registers from State, calls the library function in its GOT slot as a
// native call, and writes back what the System V convention returns. The bodies are inlined
// into the lifted callers, and State is a noalias argument the library never sees, so the
// optimizer keeps the caller's registers in machine registers across the call instead of
// writing the whole State back and reading it again.
#pragma once

#include "Translate/ElfProgram.h"
#include "hoist/Image.h"

#include <llvm/IR/Module.h>

namespace hoist {

/// Gives every `import.NAME` declaration of `module` its body (see ImportShapes.h for what each
/// passes); `__libc_start_main` becomes the runtime's own `hoist_libc_start_main` (libc is
/// already started). `program` tells which GOT slots are sure to be filled at start.
void defineImports(llvm::Module &module, const Image &image, const ElfProgram &program);

/// Replaces the body of `function`, a lifted function in State form, by a call of `native`,
/// the function brightened from it (`hoist recompile`, docs/TRANSLATE.md "Recompiled
/// programs"): as an import call, the argument registers read from State, the native call,
/// the result registers written back and the return address popped.
void defineBrightenedBridge(llvm::Function &function, llvm::Function &native);

/// Tells the optimizer what it cannot see about State: the runtime's functions keep no pointer
/// to it past the call (nocapture), and every lifted function's State argument points to a
/// whole State (dereferenceable, 16-byte aligned). With State also noalias, a library call
/// provably cannot touch it, and loops that call libraries keep registers in registers.
void describeStateArguments(llvm::Module &module);

} // namespace hoist
