// When a loop of concolic lifting is generalized into phi form instead of unrolled.
//
// The trigger is novelty, not a count. Each block instance remembers the path of instances
// that created it as a rolling hash. Arriving at a header H, the lifter looks back along that
// path for earlier instances of H: when the last p visits of H were reached by exactly the
// same sequence of blocks as the p before them (the loop's control repeats: same path, same
// concrete decisions) and a branch on a symbolic condition was taken on the way, unrolling
// brings nothing new: the loop runs on data the lifter does not know. The header is then
// generalized: the slots (registers, flags, memory bytes) that differ between those visits
// become symbolic, so the next arrival finds the same context and closes the loop, with phis
// for what changes. The same happens at once when, since the last visit, values only turned
// symbolic and no known value changed. A VM's dispatcher is not generalized while its virtual PC keeps leading
// to different handlers; a guest loop repeats its handlers and is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hoist {

/// One node of the path of instances (an instance, or the arrival being decided).
struct PathNode {
  const PathNode *parent = nullptr;
  uint64_t address = 0;
  uint64_t depth = 0;    ///< instances from the function's entry
  uint64_t trace = 0;    ///< rolling hash of the addresses from the entry
  uint64_t forks = 0;    ///< edges on the path that were one side of a symbolic branch
  uint64_t fetches = 0;  ///< steps on the path whose instance read constants from the image
  size_t owner = 0;      ///< the index of the instance this node belongs to (not an arrival)

  /// The node for an arrival at `address` from `parent` (null: the entry). `imageReads`
  /// hashes the constants the parent read from the image on the way (ConcreteMemory): a
  /// VM's handler fetching other bytecode is another step of the path, so that a guest loop
  /// repeats only where its bytecode does, not wherever one handler follows itself.
  static PathNode after(const PathNode *parent, uint64_t address, bool fork,
                        uint64_t imageReads = 0);
};

/// The nearest earlier visit of `arrival`'s address with a symbolic branch taken since, or
/// null. The lifter generalizes there when no value known at both visits changed (values
/// only turned symbolic): the loop brings no new concrete state.
/// The hash of the addresses (and image reads) after `from` up to and including `to`, which
/// `from` is an ancestor of: equal segments are the same steps.
uint64_t pathSegment(const PathNode &from, const PathNode &to);

const PathNode *lastVisitAfterFork(const PathNode &arrival, unsigned searchDepth);

/// The earlier visits of `arrival`'s address whose contexts the generalized header must
/// cover: one and two periods of the repetition back (the same point of the loop, not the
/// visits in between, which a VM's shared handler makes for other virtual instructions);
/// empty when the loop's control does not repeat or no symbolic branch was taken. Looks back
/// `searchDepth` nodes.
std::vector<const PathNode *> repeatingVisits(const PathNode &arrival, unsigned searchDepth);

} // namespace hoist
