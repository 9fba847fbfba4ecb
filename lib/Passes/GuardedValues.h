// Whether a value can change what a function does, followed path by path where small flags
// decide the path. Compilers leave a register uninitialized where a flag says it holds
// nothing yet: bzip2's `for (p = name; *p; p++) if (*p == '/') { found = 1; last = p + 1; }
// if (found) progName = last;` keeps `last` in R12 and never writes it before the loop, and
// tar's option parser alternates a flag (`odd ^= 1`) and stores the register it left unset
// only on the turns the flag rules the unset path out. Plain data flow sees the caller's R12
// reach the store. Here each path is followed with the flags' values known where constants
// and the flags themselves decide them, and with each condition that selects between a
// tainted value and a fresh one taken both ways: a store on the path where the flag is set
// sees the fresh value only.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Analysis/DemandedBits.h>
#include <llvm/IR/Value.h>

namespace hoist {

/// Whether `seed` (an argument, a register's entry value) may reach an effect of its function
/// on a path the flags allow: a store, a load's address, a call's argument (other than a call
/// that reads no memory and returns), a branch or switch condition, a return, or anything else
/// not a pure computation. `harmless` tells the uses of `seed`, or of a value that may carry
/// its bits, that are no effect (a register saved as it is, a slot a call only hands on); it
/// is told whether the value is `seed` itself on the path (`seed` or a merge of it, as a
/// register pushed, popped and pushed again on each turn of a loop). Bits of a value no
/// effect needs (DemandedBits) carry nothing.
/// Says true where the paths are too many to follow (`budget` block visits). `needed`, where
/// given, tells the bits of an effect's operand that matter (the low byte of a result its
/// callers read as a `bool`); all of them otherwise.
bool mayReachAnEffect(const llvm::Argument &seed,
                      llvm::function_ref<bool(const llvm::Use &, bool unchanged)> harmless,
                      llvm::DemandedBits &demanded, unsigned budget = 20000,
                      llvm::function_ref<uint64_t(const llvm::Use &)> needed = nullptr);

} // namespace hoist
