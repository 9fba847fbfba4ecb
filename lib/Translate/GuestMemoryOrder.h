// x86's memory order for the plain loads and stores of a program that makes threads.
//
// On x86 every load is an acquire and every store a release (TSO), so a C11 acquire load or
// release store compiles to a plain `mov`, and a program may wait for another thread's store
// by spinning on one. As ordinary LLVM loads and stores, the optimizer could hoist such a load
// out of its loop or reorder the stores that publish data. Made `load atomic acquire` and
// `store atomic release` (docs/DESIGN.md, "Translation"), each still compiles to a plain `mov`.
#pragma once

#include "hoist/Image.h"

#include <llvm/IR/Module.h>

namespace hoist {

/// Whether the program makes threads of its own: it imports pthread_create or thrd_create.
bool makesThreads(const Image &image);

/// Makes each load and store of guest memory (addressed from the memory argument) in the lifted
/// functions of `module` an acquire load or a release store, when its type is an integer,
/// pointer or floating-point value of 1, 2, 4 or 8 bytes: the accesses x86 makes single-copy
/// atomic when aligned. Wider ones (vectors, x87's 80-bit values) stay plain. Returns how many
/// accesses it changed. Call on the lifted module before the optimizer.
unsigned orderGuestAccessesAsX86(llvm::Module &module);

} // namespace hoist
