// A lifted call checks that the callee came back to the call's return address; one that went
// elsewhere (it popped or rewrote its return address, or longjmp'd) leaves State.RIP elsewhere,
// and the lifter continues there with `__hoist_jmp` (lib/Lift/FunctionLifter.cpp,
// callAndCheckReturn). To the optimizer that path may read and write all of State, and it
// needs every register the caller holds written back to State before the call: every lifted
// function that calls another then seems to touch every register, and a loop that calls one
// keeps storing its vector and x87 registers (LiftedCallEffects.h).
//
// Compiled code returns elsewhere only through longjmp, exception unwinding or context
// switches. Translation refuses the last two (Refusals.h); a longjmp in a translation leaves
// the lifted frames by the host's longjmp and never comes back through a lifted call
// (NonlocalJumps.h). A translation therefore ends the program
// there with a message naming both addresses (exit 70), as it does for an address without
// lifted code, instead of continuing.
#pragma once

#include "hoist/Lifter.h"

#include <llvm/IR/Module.h>

namespace hoist {

/// Replaces the `__hoist_jmp` to the returned-to address after each lifted call in `module`
/// with a call of the runtime's `hoist_unexpected_return`, which does not return. The message
/// names the call's address: its `!hoist.pc`, else `lifter`'s instruction-to-address map, so
/// the module must be as `lifter` lifted it. Returns the number replaced.
unsigned endUnexpectedReturns(llvm::Module &module, const Lifter &lifter);

} // namespace hoist
