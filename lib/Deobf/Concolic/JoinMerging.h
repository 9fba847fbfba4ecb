// Merging block instances where paths join (docs/DEOBFUSCATE.md, "Joins").
//
// After a branch on a symbolic condition both sides are lifted; where they meet again (a
// guest-level if/else of a VM), the second side arrives at an instance the first side
// created, with a context that usually differs in a few memory bytes: temporaries each side
// wrote and nothing reads again (an -O0 interpreter's locals of the last handler). Those bytes
// are dead: lifting the rest under either value gives the same IR, so the second arrival may
// jump into the existing instance instead of lifting the rest of the function again.
//
// Dead is decided from what the lifter saw, not guessed: each instance logs the memory bytes
// whose known value it read before writing them (MemoryAccesses), and its edges to the next
// instances with the point of the log they leave at. A byte is dead at an instance when no
// instance reachable from it reads it before it is written on the way there, or before a
// successor's context stops knowing it. Only finished instances count: reaching one still on
// the worklist, or running out of the search budget, means live. Registers and flags are not
// logged (every instruction reads them); RegisterLiveness already drops dead ones from the
// contexts, so they must agree.
#pragma once

#include "Deobf/Concolic/Context.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace hoist {

class ConcreteMemory;

/// What one block instance did with known memory, in order.
class MemoryAccesses {
public:
  /// A known value of the stack byte at `offset` (or the absolute byte) was consulted.
  void readStack(int64_t offset);
  void readAbsolute(uint64_t address);
  /// The byte was stored to: later reads in the instance see the new value.
  void wroteStack(int64_t offset);
  void wroteAbsolute(uint64_t address);
  /// The log's position: an edge taken now sees the writes logged so far.
  uint32_t now() const { return clock_; }

  /// Stores in one arm of a conditional inside the instance (ifThenElse) are no definite
  /// writes: the positions saved before the arms are restored after them (reads stay).
  struct Writes {
    std::map<int64_t, uint32_t> stack;
    std::map<uint64_t, uint32_t> absolute;
  };
  Writes writes() const { return {stackWrites_, absoluteWrites_}; }
  void restoreWrites(Writes writes);

  bool readsStack(int64_t offset) const { return stackReads_.count(offset) != 0; }
  bool readsAbsolute(uint64_t address) const { return absoluteReads_.count(address) != 0; }
  /// Whether the byte was written before the log reached `position`.
  bool wroteStackBefore(int64_t offset, uint32_t position) const;
  bool wroteAbsoluteBefore(uint64_t address, uint32_t position) const;

private:
  uint32_t clock_ = 0;
  std::set<int64_t> stackReads_;
  std::set<uint64_t> absoluteReads_;
  std::map<int64_t, uint32_t> stackWrites_;        ///< first write's position
  std::map<uint64_t, uint32_t> absoluteWrites_;
};

/// An instance's edge to the next one, taken at `position` of its MemoryAccesses.
struct InstanceEdge {
  size_t to;
  uint32_t position;
};

/// The memory bytes where an existing instance's context knows a value that an arrival's
/// context does not have.
struct ContextDifference {
  std::vector<int64_t> stack;
  std::vector<uint64_t> absolute;
  size_t size() const { return stack.size() + absolute.size(); }
};

/// The bytes that keep `existing` from standing for `arrival`, if only memory bytes do (at most
/// 64): registers, flags and clobbered sections must agree where `existing` knows them, and no
/// differing byte may hold a stack pointer (an external call forgets what stack pointers in
/// memory point to, a read the log does not see).
std::optional<ContextDifference> memoryDifference(const Context &existing, const Context &arrival,
                                                  const ConcreteMemory &memory);

/// What the search needs of instance `index`: its context, accesses and edges, and whether it
/// is finished.
struct JoinNode {
  const Context *context;
  const MemoryAccesses *accesses;
  const std::vector<InstanceEdge> *edges;
  bool lifted;
};

/// Whether some byte of `difference` may be read by the lifting from instance `from` on (see
/// above). Each instance visited costs one unit of `budget`; at zero the answer is yes.
bool differenceMayBeRead(size_t from, const ContextDifference &difference,
                         llvm::function_ref<JoinNode(size_t)> node, uint64_t &budget);

} // namespace hoist
