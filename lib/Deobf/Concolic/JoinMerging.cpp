#include "Deobf/Concolic/JoinMerging.h"

#include "Deobf/Concolic/ConcreteMemory.h"

#include <unordered_map>

namespace hoist {
namespace {

constexpr size_t MaxDifference = 64;   // bytes: one bit each in the search's masks

template <typename Key>
bool writtenBefore(const std::map<Key, uint32_t> &writes, Key key, uint32_t position) {
  auto found = writes.find(key);
  return found != writes.end() && found->second < position;
}

bool holdsStackPointer(const MemoryByte &byte) {
  return byte.kind == MemoryByte::Kind::StackPointer;
}

} // namespace

void MemoryAccesses::readStack(int64_t offset) {
  if (!stackWrites_.count(offset))
    stackReads_.insert(offset);
  ++clock_;
}

void MemoryAccesses::readAbsolute(uint64_t address) {
  if (!absoluteWrites_.count(address))
    absoluteReads_.insert(address);
  ++clock_;
}

void MemoryAccesses::wroteStack(int64_t offset) { stackWrites_.emplace(offset, clock_++); }

void MemoryAccesses::wroteAbsolute(uint64_t address) {
  absoluteWrites_.emplace(address, clock_++);
}

void MemoryAccesses::restoreWrites(Writes writes) {
  stackWrites_ = std::move(writes.stack);
  absoluteWrites_ = std::move(writes.absolute);
}

bool MemoryAccesses::wroteStackBefore(int64_t offset, uint32_t position) const {
  return writtenBefore(stackWrites_, offset, position);
}

bool MemoryAccesses::wroteAbsoluteBefore(uint64_t address, uint32_t position) const {
  return writtenBefore(absoluteWrites_, address, position);
}

std::optional<ContextDifference> memoryDifference(const Context &existing, const Context &arrival,
                                                  const ConcreteMemory &memory) {
  for (unsigned i = 0; i < Context::NumGprs; ++i)
    if (!existing.gprs[i].isSymbolic() && !(existing.gprs[i] == arrival.gprs[i]))
      return std::nullopt;
  for (unsigned i = 0; i < Context::NumFlags; ++i)
    if (!existing.flags[i].isSymbolic() && !(existing.flags[i] == arrival.flags[i]))
      return std::nullopt;
  if (existing.memory.clobberedSections != arrival.memory.clobberedSections)
    return std::nullopt;
  ContextDifference difference;
  for (const auto &[offset, byte] : existing.memory.stack) {
    auto found = arrival.memory.stack.find(offset);
    if (found != arrival.memory.stack.end() && found->second == byte)
      continue;
    if (holdsStackPointer(byte) ||
        (found != arrival.memory.stack.end() && holdsStackPointer(found->second)))
      return std::nullopt;
    difference.stack.push_back(offset);
  }
  // A stack pointer only the arrival knows: the existing instance's external calls would not
  // forget what it points to.
  for (const auto &[offset, byte] : arrival.memory.stack)
    if (holdsStackPointer(byte) && !existing.memory.stack.count(offset))
      return std::nullopt;
  std::set<uint64_t> absolute;
  for (const auto &[address, byte] : existing.memory.absolute)
    absolute.insert(address);
  for (const auto &[address, byte] : arrival.memory.absolute)
    absolute.insert(address);
  for (uint64_t address : absolute) {
    MemoryByte mine = memory.absoluteByte(existing.memory, address);
    MemoryByte theirs = memory.absoluteByte(arrival.memory, address);
    if (mine.kind == MemoryByte::Kind::Unknown || mine == theirs)
      continue;
    if (holdsStackPointer(mine) || holdsStackPointer(theirs))
      return std::nullopt;
    difference.absolute.push_back(address);
  }
  if (difference.size() > MaxDifference)
    return std::nullopt;
  return difference;
}

bool differenceMayBeRead(size_t from, const ContextDifference &difference,
                         llvm::function_ref<JoinNode(size_t)> node, uint64_t &budget) {
  // Bit i of a mask: stack byte i, then absolute byte i - stack.size(), still holding the
  // value it had at `from`.
  size_t stackCount = difference.stack.size();
  size_t count = difference.size();
  if (count == 0)
    return false;
  uint64_t all = count == 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1;
  std::unordered_map<size_t, uint64_t> seen{{from, all}};
  std::vector<std::pair<size_t, uint64_t>> work{{from, all}};
  while (!work.empty()) {
    auto [index, mask] = work.back();
    work.pop_back();
    if (budget == 0)
      return true;
    --budget;
    JoinNode here = node(index);
    if (!here.lifted)
      return true;
    for (size_t i = 0; i < count; ++i)
      if ((mask >> i & 1) && (i < stackCount ? here.accesses->readsStack(difference.stack[i])
                                             : here.accesses->readsAbsolute(
                                                   difference.absolute[i - stackCount])))
        return true;
    for (const InstanceEdge &edge : *here.edges) {
      const Context &next = *node(edge.to).context;
      uint64_t carried = 0;
      for (size_t i = 0; i < count; ++i) {
        if (!(mask >> i & 1))
          continue;
        bool kept = i < stackCount
                        ? !here.accesses->wroteStackBefore(difference.stack[i], edge.position) &&
                              next.memory.stack.count(difference.stack[i])
                        : !here.accesses->wroteAbsoluteBefore(difference.absolute[i - stackCount],
                                                              edge.position);
        carried |= uint64_t(kept) << i;
      }
      uint64_t &visited = seen[edge.to];
      if ((carried & ~visited) == 0)
        continue;
      visited |= carried;
      work.emplace_back(edge.to, carried);
    }
  }
  return false;
}

} // namespace hoist
