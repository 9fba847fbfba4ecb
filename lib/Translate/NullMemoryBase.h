// Lifted code addresses the program's memory from its second argument, the memory base: guest
// address A is `getelementptr i8, ptr %memory, i64 A`. The optimizer needs that base (alias
// analysis relates accesses through it, and tells them apart from State), but in a translated
// program it is always null: the program's image sits at its own addresses (runtime/calls.c
// and startup.c call every lifted function with 0). Left as an argument it costs a callee-saved
// register in every lifted function and an add for each guest pointer that is computed rather
// than folded into an addressing mode (wc's loop adds it to all six argument registers of
// every library call). Once the optimizer is done, the base becomes the constant it is.
#pragma once

#include <llvm/IR/Module.h>

namespace hoist {

/// Replaces the memory argument of every lifted function of `module` with null and marks the
/// function `null-pointer-is-valid` (guest address 0 plus an offset is ordinary memory, and
/// nothing may treat an access through it as undefined). Call after the optimizer, right
/// before code generation. Returns the number of functions changed.
unsigned useNullMemoryBase(llvm::Module &module);

} // namespace hoist
