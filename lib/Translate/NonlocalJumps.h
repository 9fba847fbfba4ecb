// setjmp in a translated program (docs/TRANSLATE.md, "Non-local jumps"). A longjmp must come
// back into the host frame of the lifted function that called setjmp, with the native frames of
// the lifted code between abandoned, as natively. So each direct call of `setjmp`, `_setjmp` or
// `__sigsetjmp` in lifted code becomes, in that lifted function itself:
//
//   hoist_setjmp_save(state, kind)       the guest registers longjmp restores, into the jmp_buf
//   r = _setjmp(jmp_buf)                 the host's, returns_twice, in this frame
//   hoist_setjmp_returned(state, r, jmp_buf)   on the second return: State as at the setjmp
//   RIP = the return address, RSP += 8   as the import's ret would
//
// The host's longjmp (the program's longjmp, or the runtime's in its place) lands at the second
// return of `_setjmp`. hoist_setjmp_returned writes State as far as LLVM knows, so the code
// after the call reads every register it needs again: the lifted callees between wrote their
// own values into the same State.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Function.h>

namespace hoist {

/// Whether `name` (an import, with or without a version) is one of the setjmp family.
bool isSetjmpImport(llvm::StringRef name);

/// Replaces every direct call of the setjmp import `import` in lifted code by the sequence
/// above, and gives `import` a body for what is left: a call through a pointer, which ends the
/// program with a message (the host setjmp would be taken in a frame that returns at once).
/// Returns how many calls it replaced.
unsigned defineSetjmpImport(llvm::Function &import, llvm::StringRef name);

} // namespace hoist
