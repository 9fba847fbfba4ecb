// Once the memory base is null (NullMemoryBase.h), a guest address is an integer: the guest
// frame is `add i64 %rsp, -16552`, a local in it `getelementptr i8, ptr null, i64 %frame` plus a
// constant. The optimizer hoists such address computations out of loops (LICM), so a loop
// receives several values that differ from the entry stack pointer by constants, each of them
// live across the whole loop. Code generation folds an address into the load or store only
// within a block, and CodeGenPrepare sinks one into the block only when every use of it is a
// foldable memory access: wc's frame pointer is also stored to State and passed around, so it
// stayed a value of its own, a seventh callee-saved register the loop did not have, spilled and
// reloaded after each library call. Rewriting each access as root + constant in its own block
// leaves one register (the root) live and gives every access its displacement.
#pragma once

#include <llvm/IR/Module.h>

namespace hoist {

/// Rewrites the address of every load and store of the lifted functions in `module` whose
/// address is a root value plus constants computed elsewhere: the access gets
/// `getelementptr i8, ptr <root>, i64 <constant>` (an integer root through a null base) right
/// before it, and the old computation goes if nothing else uses it. Call after
/// useNullMemoryBase, right before code generation. Returns the number of addresses rewritten.
unsigned foldGuestAddresses(llvm::Module &module);

} // namespace hoist
