#include "Discover/FunctionParts.h"

#include "Discover/Registry.h"
#include "Discover/StackDepth.h"

#include <algorithm>
#include <optional>

namespace hoist {

std::map<uint64_t, std::set<uint64_t>>
jumpReferences(const std::map<uint64_t, DiscoveredFunction> &functions,
               const std::set<uint64_t> &starts) {
  std::map<uint64_t, std::set<uint64_t>> references;
  for (const auto &[entry, function] : functions) {
    for (uint64_t target : function.tailCalls)
      if (target != entry && starts.count(target))
        references[target].insert(entry);
    for (const auto &[start, block] : function.explored.blocks)
      if (start != entry && starts.count(start))
        references[start].insert(entry);
  }
  return references;
}

namespace {

bool isColdPartName(llvm::StringRef name, llvm::StringRef parent) {
  if (!name.consume_front(parent) || !name.consume_front(".cold"))
    return false;
  // gcc numbers the parts of one function when there are several: f.cold.0, f.cold.1
  return name.empty() || (name.consume_front(".") && !name.empty() &&
                          name.find_first_not_of("0123456789") == llvm::StringRef::npos);
}

/// Whether the part's own code, explored as a function, jumps into its parent's stretch past
/// the entry: no function jumps into the middle of another, a part jumps back to where its
/// parent goes on.
bool jumpsBack(const DiscoveredFunction &part, uint64_t parent, uint64_t stretchEnd) {
  auto inStretch = [&](uint64_t address) { return address > parent && address < stretchEnd; };
  for (uint64_t target : part.tailCalls)
    if (inStretch(target))
      return true;
  for (const auto &[start, block] : part.explored.blocks)
    if (inStretch(start))
      return true;
  return false;
}

/// Whether `parent` enters `start`, below its entry, only by conditional branches: no jmp
/// (which would be a tail call) and no block running into it. gcc lays the parts it moves to
/// .text.unlikely out before the functions of .text; clang-19 tail-calls conditionally a
/// function that nothing else calls, which follows its caller (grep's `clean_up_stdout`: `je
/// close_stdout`).
bool onlyBranchedTo(const DiscoveredFunction &parent, uint64_t start) {
  if (start >= parent.explored.entry ||
      std::count(parent.tailCalls.begin(), parent.tailCalls.end(), start))
    return false;
  bool branched = false;
  for (const auto &[from, block] : parent.explored.blocks) {
    bool enters = std::count(block.successors.begin(), block.successors.end(), start) > 0;
    if (enters && (block.endAddress == start || block.successors.size() != 2))
      return false;   // runs into it, or jumps to it unconditionally
    branched |= enters;
  }
  return branched;
}

/// gcc's part of a path to `abort` (`[push rax;] call abort`, grep's `hash_get_first.cold`),
/// entered by a `jmp` like a tail call: it never returns, and it starts where no function of
/// an aligned parent would. gcc aligns the functions of .text to 16 bytes at -O2 and lays the
/// pieces of .text.unlikely out back to back; a function it tail-calls does return (a callee
/// it knows never returns is called, not jumped to).
bool unalignedNoReturnPiece(const PartCandidate &candidate, uint64_t parentEntry) {
  return candidate.asFunction && candidate.asFunction->noreturn && candidate.start % 16 != 0 &&
         parentEntry % 16 == 0;
}

/// gcc's isolated erroneous path (a NULL dereference it turned into a trap: `movzx eax, byte
/// [0]; ud2`, bash's `eval_expr_val.cold`), entered by a `jmp`: code that neither returns nor
/// calls nor jumps anywhere, and traps. Its alignment is chance (the pieces of .text.unlikely
/// lie back to back); a function the compiler tail-calls returns, or calls what ends it.
bool trapOnlyPiece(const PartCandidate &candidate) {
  const DiscoveredFunction *piece = candidate.asFunction;
  return piece && piece->noreturn && piece->calls.empty() && piece->tailCalls.empty() &&
         piece->unresolvedJumps.empty() && piece->computedJumps.empty() &&
         piece->importJumps.empty() &&
         std::any_of(piece->explored.blocks.begin(), piece->explored.blocks.end(),
                     [](const auto &block) {
                       return block.second.end == MachineBlock::End::Terminator &&
                              block.second.successors.empty();
                     });
}

/// Whether `start` is a case label of one of the parent's jump tables: a label of its own code
/// (diffutils' `diff_2_files.cold`, a case of `diff_2_files`' switch). A table whose targets
/// are all other functions' starts is a table of function pointers, not among `jumpTables`.
bool caseLabelOf(const DiscoveredFunction &parent, uint64_t start) {
  return std::any_of(parent.explored.jumpTables.begin(), parent.explored.jumpTables.end(),
                     [&](const auto &table) {
                       return table.second.shape != JumpTable::Shape::Computed &&
                              std::count(table.second.targets.begin(),
                                         table.second.targets.end(), start);
                     });
}

} // namespace

bool jumpedToInFrame(const Image &image, const DiscoveredFunction &parent, uint64_t start) {
  std::vector<std::optional<int64_t>> depths = stackDepthsAtJumpsTo(image, parent, start);
  return std::any_of(depths.begin(), depths.end(),
                     [](const std::optional<int64_t> &depth) { return depth && *depth != 0; });
}

bool hasOnlyPartReasons(uint32_t reasons) {
  // A gap's code is a start only for want of anything that reaches it: a jump found later
  // (its parent explored after the gaps were weighed: diffutils' `mem_cd_iconv.cold`) may make
  // it a part.
  constexpr uint32_t PartReasons =
      ReasonEhFrame | ReasonPdata | ReasonLeavesFunction | ReasonSymbol | ReasonCodeGap;
  return !(reasons & FunctionStartReasons & ~PartReasons);
}

bool isPartOf(const PartCandidate &candidate, const DiscoveredFunction &parent,
              std::optional<llvm::StringRef> parentName, const std::set<uint64_t> &starts) {
  uint64_t entry = parent.explored.entry;
  if (candidate.start == entry || !hasOnlyPartReasons(candidate.reasons))
    return false;
  bool named = candidate.name && parentName && isColdPartName(*candidate.name, *parentName);
  if ((candidate.reasons & ReasonSymbol) && !named)
    return false;   // a symbol of its own: a function, whatever jumps to it
  uint64_t stretchEnd = runEnd(parent.explored, entry, starts);
  return named || candidate.continuesFrame ||
         (candidate.asFunction && jumpsBack(*candidate.asFunction, entry, stretchEnd)) ||
         onlyBranchedTo(parent, candidate.start) ||
         caseLabelOf(parent, candidate.start) ||
         unalignedNoReturnPiece(candidate, entry) || trapOnlyPiece(candidate) ||
         (candidate.enteredInFrame && candidate.enteredInFrame());
}

uint64_t runEnd(const ExploredFunction &function, uint64_t from,
                const std::set<uint64_t> &starts) {
  auto block = function.blocks.find(from);
  if (block == function.blocks.end())
    return from;
  uint64_t end = block->second.endAddress;
  for (++block; block != function.blocks.end(); ++block) {
    auto between = starts.lower_bound(end);
    if (between != starts.end() && *between <= block->first)
      break;
    end = std::max(end, block->second.endAddress);
  }
  return end;
}

std::vector<CodeRange> partExtents(const ExploredFunction &function,
                                   const std::map<uint64_t, uint64_t> &parts,
                                   const std::set<uint64_t> &starts) {
  std::vector<CodeRange> extents;
  for (const auto &[start, parent] : parts)
    if (parent == function.entry && function.blocks.count(start)) {
      // The part's own start bounds the parent's run, and the parent's bounds the part's.
      std::set<uint64_t> bounds = starts;
      bounds.insert(function.entry);
      for (const auto &[other, otherParent] : parts)
        bounds.insert(other);
      extents.push_back({start, runEnd(function, start, bounds) - start});
    }
  return extents;
}

} // namespace hoist
