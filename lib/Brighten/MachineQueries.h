// What only the machine answers: cpuid, xgetbv, rdtsc and rdtscp, which lifted code asks the
// runtime for (`call @__hoist_cpuid(ptr %state, ptr %mem, i64 pc)`, lib/Semantics/System.cpp;
// runtime/machine.c executes the instruction). A brightened function runs on a machine as
// well, so it asks that machine itself: the instruction inline, reading its inputs from State
// and writing what it writes there, which SROA then turns into values. The original program
// asked the machine it ran on; so does the recompiled one (liblzma and wc choose their CRC and
// counting loops by cpuid).
#pragma once

#include <llvm/IR/InstrTypes.h>

namespace hoist {

/// Whether `call` asks the runtime for one of those instructions.
bool isMachineQuery(const llvm::CallBase &call);

/// Puts the instruction `call` asks for in its place (inline assembly over the State fields it
/// reads and writes); `call` itself stays, for the caller to erase.
void expandMachineQuery(llvm::CallBase &call);

} // namespace hoist
