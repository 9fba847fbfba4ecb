#include "Discover/LayoutTailCalls.h"

#include "Discover/StackDepth.h"

#include <algorithm>
#include <set>
#include <vector>

namespace hoist {
namespace {

/// The end of the code `function` reaches from its entry without the edge from the block at
/// `jmpBlock` to `target`: the highest end of those blocks.
uint64_t endWithoutEdge(const ExploredFunction &function, uint64_t jmpBlock, uint64_t target) {
  std::set<uint64_t> seen{function.entry};
  std::vector<uint64_t> work{function.entry};
  uint64_t end = 0;
  while (!work.empty()) {
    uint64_t at = work.back();
    work.pop_back();
    auto block = function.blocks.find(at);
    if (block == function.blocks.end())
      continue;
    end = std::max(end, block->second.endAddress);
    for (uint64_t next : block->second.successors)
      if (!(at == jmpBlock && next == target) && seen.insert(next).second)
        work.push_back(next);
  }
  return end;
}

/// Whether rsp is where it was at the entry of `function` at every jump of it to `target`
/// (and there is one): the function's frame is gone where it leaves for `target`.
bool frameGoneAtEveryJumpTo(const Image &image, const DiscoveredFunction &function,
                            uint64_t target) {
  std::vector<std::optional<int64_t>> depths = stackDepthsAtJumpsTo(image, function, target);
  return !depths.empty() &&
         std::all_of(depths.begin(), depths.end(),
                     [](const std::optional<int64_t> &depth) { return depth && *depth == 0; });
}

} // namespace

bool tailCallsNext(const Image &image, const DiscoveredFunction &function, const Instr &jmp,
                   uint64_t target) {
  return target == jmp.next() && frameGoneAtEveryJumpTo(image, function, target);
}

bool jumpedToOnlyFromAboveWithFrameGone(const Image &image, const DiscoveredFunction &function,
                                        uint64_t target) {
  for (const auto &[start, block] : function.explored.blocks)
    if (block.endAddress > target &&
        std::find(block.successors.begin(), block.successors.end(), target) !=
            block.successors.end())
      return false;
  return frameGoneAtEveryJumpTo(image, function, target);
}

bool tailCallsPastOwnCode(const Image &image, const DiscoveredFunction &function, uint64_t jmpBlock,
                          const Instr &jmp, uint64_t target) {
  if (target <= jmp.next() || endWithoutEdge(function.explored, jmpBlock, target) != target)
    return false;
  bool tornDown = false, balanced = true;
  forEachInstructionWithStackDepth(image, function,
                                   [&](const Instr &instr, std::optional<int64_t> depth) {
                                     if (instr.address < jmpBlock || instr.address > jmp.address)
                                       return;
                                     if (instr.address == jmp.address)
                                       balanced = balanced && depth && *depth == 0;
                                     else if (depth && *depth < 0)
                                       tornDown = true;
                                   });
  return tornDown && balanced;
}

bool branchFirstCrosses(const ExploredFunction &function, const std::set<uint64_t> &newStarts,
                        const std::set<uint64_t> &starts) {
  auto crossesOld = [&](uint64_t low, uint64_t high) {
    for (auto it = starts.upper_bound(low); it != starts.end() && *it < high; ++it)
      if (*it != function.entry && !newStarts.count(*it))
        return true;
    return false;
  };
  for (const auto &[start, block] : function.blocks)
    for (uint64_t successor : block.successors) {
      uint64_t low = std::min(start, successor), high = std::max(start, successor);
      auto crossed = newStarts.upper_bound(low);
      if (successor != block.endAddress && crossed != newStarts.end() && *crossed < high &&
          !crossesOld(low, high))
        return true;
    }
  return false;
}

bool holdsInsideABlock(const ExploredFunction &function, const std::set<uint64_t> &addresses) {
  for (const auto &[start, block] : function.blocks) {
    auto inside = addresses.upper_bound(start);
    if (inside != addresses.end() && *inside < block.endAddress)
      return true;
  }
  return false;
}

} // namespace hoist
