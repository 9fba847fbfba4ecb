// Code generation of a translated module in N threads (`hoist translate -j N`): the module,
// optimized whole, is split into partitions of whole functions, and each partition is
// compiled to an object of its own by a thread with its own LLVMContext; the objects link
// into the program as the one object of `-j 1` does. Every function is optimized before the
// split, so its IR does not depend on the partition it lands in (docs/DESIGN.md,
// "Translation").
#pragma once

#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace hoist {

/// The partitions `module` is split into with `jobs` threads: `jobs`, but no more than the
/// functions it defines, and 1 when something in it cannot be split (an alias, an ifunc).
unsigned partitionCount(const llvm::Module &module, unsigned jobs);

/// Assigns the functions of `module` to `partitions` partitions, each about as large (in IR
/// instructions) as the others, the variables to the first; the same module always gets the
/// same assignment. Returns, per partition, the names of the symbols it defines.
std::vector<std::vector<std::string>> assignPartitions(const llvm::Module &module,
                                                       unsigned partitions);

/// Gives every local symbol of `module` a name of Hoist's own (`.hoist.local.NAME`) and
/// hidden external linkage, so that partitions can refer to what another defines.
void externalizeLocals(llvm::Module &module);

/// Writes `module` (verified, not changed after) as `partitionCount(module, jobs)` objects
/// for this machine's CPU (as writeObjectForThisCpu), compiled in as many threads, at
/// `paths[0]`, `paths[1]`, ... (temporary files the caller made and removes; it made at least
/// that many). Changes `module` (externalizeLocals).
llvm::Error writePartitionedObjects(llvm::Module &module, unsigned jobs,
                                    const std::vector<std::string> &paths);

} // namespace hoist
