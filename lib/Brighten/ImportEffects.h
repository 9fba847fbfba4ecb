// What a library function may write to memory, so that concolic lifting keeps the rest of
// the stack known across a call of it, and brightening keeps the rest of the local stack out
// of the callee's reach (SplitStack.h). Without this, a pointer into the stack given to an
// import makes the whole frame above it unknown (ConcreteMemory::externalCall): on Win64
// that includes the callee-saved registers a helper pushed in its prologue, such as a VM's
// virtual PC, when `WriteConsoleA` gets a pointer to the helper's `written` variable.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <vector>

namespace hoist {

/// One pointer argument the function writes through.
struct PointerWrite {
  unsigned argument;        ///< its position among the arguments
  unsigned bytes = 0;       ///< how many bytes it writes there, or
  int sizeArgument = -1;    ///< the argument that holds that count (memset, memcpy)
};

struct ImportEffects {
  /// How many arguments it takes (those past the argument registers are on the stack, which
  /// the callee owns).
  unsigned arguments = 0;
  /// The only memory it writes; its other pointer arguments are read, never kept, and lead
  /// to no pointers it follows to write (no callbacks, no FILE).
  std::vector<PointerWrite> writes;
};

/// The effects of the library function `name` imported from `library` (a DLL; empty for an
/// ELF import) as its prototype table entry gives them (`KnownWrites`: docs/PROTOTYPES.md),
/// or nullopt when they are not known (the callee may then write anything it gets a pointer
/// to).
std::optional<ImportEffects> importEffects(llvm::StringRef name, llvm::StringRef library);

} // namespace hoist
