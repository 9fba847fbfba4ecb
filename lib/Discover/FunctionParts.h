// Parts of a function that the compiler moved away from it (gcc's `f.cold`, laid out in
// .text.unlikely, often before every hot function): code entered only by jumps from the middle
// of one function, which runs in that function's frame and returns or jumps back through it.
// A part is not a function: discovery explores it as its parent's code, `hoist cfg` lists it
// under the parent, `hoist lift` lifts it inside the parent.
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "Discover/UnwindTables.h"

#include <llvm/ADT/StringRef.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hoist {

/// What is known of a function start that may be a part.
struct PartCandidate {
  uint64_t start = 0;
  uint32_t reasons = 0;                       ///< the registry's reasons for `start`
  std::optional<std::string> name;            ///< its symbol's name, if any
  bool continuesFrame = false;                ///< its unwind entry starts mid-frame
  const DiscoveredFunction *asFunction = nullptr;   ///< its exploration as a function, if any
  /// Whether the parent jumps to it with its frame still on the stack (jumpedToInFrame),
  /// asked last: it decodes the parent again.
  std::function<bool()> enteredInFrame;
};

/// Whether `parent` jumps to `start` with its own frame still on the stack: rsp, followed from
/// the entry over pushes, pops and constant adjustments, is not where it was at the entry. A
/// tail call jumps after the epilogue; gcc's part runs in its parent's frame (sed's
/// `lex.cold`, `call abort`, the first piece of .text.unlikely and so aligned by chance,
/// entered by `jmp` from the middle of `lex`).
bool jumpedToInFrame(const Image &image, const DiscoveredFunction &parent, uint64_t start);

/// Entry -> the functions whose code jumps to it: a block of theirs starts there (a jcc into
/// it) or they tail-call it. Only addresses in `starts`, and never a function's own entry.
std::map<uint64_t, std::set<uint64_t>>
jumpReferences(const std::map<uint64_t, DiscoveredFunction> &functions,
               const std::set<uint64_t> &starts);

/// Whether a start with these registry reasons may be a part: its reasons to be a function are
/// at most an unwind entry (.eh_frame, .pdata), a jump that leaves its function, a symbol (of
/// the part's name) and a gap.
bool hasOnlyPartReasons(uint32_t reasons);

/// Whether `candidate`, jumped to by `parent` alone, is a part of it. Only a start whose reasons
/// are an unwind entry, a jump that leaves its function, or a symbol named `<parent>.cold` or
/// `<parent>.cold.N` may be one (a call, a pointer, an export make it a function); and there
/// must be evidence beyond the jump, because a function reached only by a tail call is a
/// function: that symbol, an unwind entry that starts mid-frame, a jump back into the parent's
/// own stretch of code (the run of its blocks from its entry; `starts` bound it), or a parent
/// that only branches to it conditionally from below its entry (gcc's `ja f.cold` from a
/// function without a frame, whose part is `mov eax, -2; ret`: gcc lays .text.unlikely out
/// before .text; clang-19's conditional tail calls go to functions after their callers), or a
/// piece that never returns at an address not aligned to 16 bytes while its parent's entry is
/// (gcc's `hash_get_first.cold`, `push rax; call abort`, entered by `jmp`), or a piece that only
/// traps (gcc's isolated NULL dereference, `movzx eax, byte [0]; ud2`), or a case label of one
/// of the parent's jump tables, or a jump to it with the parent's frame on the stack.
bool isPartOf(const PartCandidate &candidate, const DiscoveredFunction &parent,
              std::optional<llvm::StringRef> parentName, const std::set<uint64_t> &starts);

/// The end of the run of `function`'s blocks from `from`: blocks follow one another while no
/// address of `starts` lies between one's end and the next one's start (filler may).
uint64_t runEnd(const ExploredFunction &function, uint64_t from,
                const std::set<uint64_t> &starts);

/// The extents of `function`'s parts (`parts`: part start -> parent entry), in address order.
std::vector<CodeRange> partExtents(const ExploredFunction &function,
                                   const std::map<uint64_t, uint64_t> &parts,
                                   const std::set<uint64_t> &starts);

} // namespace hoist
