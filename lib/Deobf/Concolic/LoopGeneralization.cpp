#include "Deobf/Concolic/LoopGeneralization.h"

namespace hoist {
namespace {

constexpr uint64_t TraceBase = 0x100000001b3ull;   // odd: powers never vanish modulo 2^64

uint64_t power(uint64_t exponent) {
  uint64_t result = 1, base = TraceBase;
  for (; exponent; exponent >>= 1, base *= base)
    if (exponent & 1)
      result *= base;
  return result;
}

/// The hash of the addresses after `from` up to and including `to` (`from` an ancestor).
uint64_t segment(const PathNode &from, const PathNode &to) {
  return to.trace - from.trace * power(to.depth - from.depth);
}

} // namespace

PathNode PathNode::after(const PathNode *parent, uint64_t address, bool fork,
                         uint64_t imageReads) {
  PathNode node;
  node.parent = parent;
  node.address = address;
  node.depth = parent ? parent->depth + 1 : 0;
  node.trace = (parent ? parent->trace * TraceBase : 0) + ((address + 1) ^ imageReads);
  node.forks = (parent ? parent->forks : 0) + (fork ? 1 : 0);
  node.fetches = (parent ? parent->fetches : 0) + (imageReads != 0 ? 1 : 0);
  return node;
}

uint64_t pathSegment(const PathNode &from, const PathNode &to) { return segment(from, to); }

const PathNode *lastVisitAfterFork(const PathNode &arrival, unsigned searchDepth) {
  unsigned steps = 0;
  for (const PathNode *node = arrival.parent; node && steps < searchDepth;
       node = node->parent, ++steps)
    if (node->address == arrival.address)
      return node->forks < arrival.forks ? node : nullptr;
  return nullptr;
}

std::vector<const PathNode *> repeatingVisits(const PathNode &arrival, unsigned searchDepth) {
  std::vector<const PathNode *> visits;
  unsigned steps = 0;
  for (const PathNode *node = arrival.parent; node && steps < searchDepth;
       node = node->parent, ++steps)
    if (node->address == arrival.address)
      visits.push_back(node);
  // Period p (in visits of the header): visits[p-1] is one period back, visits[2p-1] two.
  for (size_t period = 1; 2 * period <= visits.size(); ++period) {
    const PathNode &oneBack = *visits[period - 1];
    const PathNode &twoBack = *visits[2 * period - 1];
    if (arrival.depth - oneBack.depth != oneBack.depth - twoBack.depth)
      continue;
    if (arrival.forks == oneBack.forks)
      continue;   // no symbolic branch in the last period: the loop runs on known values
    if (segment(oneBack, arrival) == segment(twoBack, oneBack))
      return {&oneBack, &twoBack};   // the same point of the loop, one and two rounds back
  }
  return {};
}

} // namespace hoist
