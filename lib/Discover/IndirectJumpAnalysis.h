// The escalation step for indirect jmps the jump-table matcher did not resolve: a value
// analysis of the jump's target over every path that reaches it (backwards, through register
// copies, bounded), in the spirit of rev.ng's escalation from cheap to expensive analyses.
// It resolves a target that is a constant on all paths (`lea rax, [rip+f]; jmp rax`), a
// pointer loaded from a read-only slot (a constant pointer in .rodata, .data.rel.ro, or
// .rdata), and a pointer loaded from an import's slot (`mov rax, [rip+GOT]; jmp rax`).
// Anything else keeps a reason, which `hoist cfg` reports. Indirect calls get the same analysis:
// a constant target is a function called through a pointer the code computes.
#pragma once

#include "Discover/FunctionExplorer.h"
#include "hoist/Image.h"
#include "hoist/Options.h"

#include <string>
#include <vector>

namespace hoist {

struct IndirectJumpValue {
  enum class Kind {
    Constant,   ///< the target is one of `targets` on every path
    Import,     ///< the target is the value the loader puts in import slot `importSlot`
    Unresolved, ///< `reason` says why
  };
  Kind kind = Kind::Unresolved;
  std::vector<uint64_t> targets; ///< sorted, distinct, each decodes as code
  uint64_t importSlot = 0;
  std::string reason;
  /// Unresolved: on some path the target is computed by arithmetic or loaded from a computed
  /// address, as a jump table's is (not a pointer loaded from an object or a global).
  bool computed = false;
};

/// What the indirect jmp ending `block` (a block of `function`) goes to.
IndirectJumpValue analyzeIndirectJump(const Image &image, InstructionCache &cache,
                                      const ExploredFunction &function, const MachineBlock &block,
                                      const LiftOptions &options);

/// The same for the indirect call at instruction `position` of `block`: a constant target is an
/// address taken in code and called through (`lea rax, [rip+f]; call rax`, or a pointer loaded
/// from a read-only slot), evidence that a function starts there.
IndirectJumpValue analyzeIndirectCall(const Image &image, InstructionCache &cache,
                                      const ExploredFunction &function, const MachineBlock &block,
                                      size_t position, const LiftOptions &options);

/// The pointer a program reads from `slot` when no store can have changed it since it was
/// loaded: a slot in a mapped read-only section (its bytes; for a slot a relocation fills, the
/// relocated value), or in ELF `.data.rel.ro` (read-only once relocated: RELRO). Not an
/// import's slot: the loader fills those.
std::optional<uint64_t> constantPointerAt(const Image &image, uint64_t slot);

} // namespace hoist
