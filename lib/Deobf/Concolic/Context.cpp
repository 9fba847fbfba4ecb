#include "Deobf/Concolic/Context.h"

#include "Deobf/Concolic/ConcreteMemory.h"

#include <llvm/ADT/Hashing.h>

namespace hoist {

uint64_t Context::hash() const {
  llvm::hash_code code = memory.hash();
  for (const std::array<AbstractValue, NumGprs> *values : {&gprs})
    for (const AbstractValue &value : *values)
      code = llvm::hash_combine(code, static_cast<uint8_t>(value.kind),
                                value.isSymbolic() ? 0 : value.value);
  for (const AbstractValue &value : flags)
    code = llvm::hash_combine(code, static_cast<uint8_t>(value.kind),
                              value.isSymbolic() ? 0 : value.value);
  return code;
}

namespace {

bool coversValue(const AbstractValue &general, const AbstractValue &specific) {
  return general.isSymbolic() || general == specific;
}

bool isKnown(const MemoryByte &byte) { return byte.kind != MemoryByte::Kind::Unknown; }

/// Every absolute address either state lists, and the sections either has clobbered.
template <typename Visit>
void forEachAbsolute(const MemoryState &a, const MemoryState &b, Visit visit) {
  for (const auto &[address, byte] : a.absolute)
    visit(address);
  for (const auto &[address, byte] : b.absolute)
    if (!a.absolute.count(address))
      visit(address);
}

} // namespace

bool Context::covers(const Context &other, const ConcreteMemory &concrete) const {
  for (unsigned i = 0; i < NumGprs; ++i)
    if (!coversValue(gprs[i], other.gprs[i]))
      return false;
  for (unsigned i = 0; i < NumFlags; ++i)
    if (!coversValue(flags[i], other.flags[i]))
      return false;
  for (const auto &[offset, byte] : memory.stack) {
    auto found = other.memory.stack.find(offset);
    if (found == other.memory.stack.end() || !(found->second == byte))
      return false;
  }
  for (uint64_t section : other.memory.clobberedSections)
    if (!memory.clobberedSections.count(section))
      return false;
  bool covered = true;
  forEachAbsolute(memory, other.memory, [&](uint64_t address) {
    MemoryByte mine = concrete.absoluteByte(memory, address);
    if (isKnown(mine) && !(concrete.absoluteByte(other.memory, address) == mine))
      covered = false;
  });
  return covered;
}

bool Context::conflicts(const Context &other, const ConcreteMemory &concrete) const {
  auto differ = [](const AbstractValue &a, const AbstractValue &b) {
    return !a.isSymbolic() && !b.isSymbolic() && !(a == b);
  };
  for (unsigned i = 0; i < NumGprs; ++i)
    if (differ(gprs[i], other.gprs[i]))
      return true;
  for (unsigned i = 0; i < NumFlags; ++i)
    if (differ(flags[i], other.flags[i]))
      return true;
  for (const auto &[offset, byte] : memory.stack) {
    auto found = other.memory.stack.find(offset);
    if (found != other.memory.stack.end() && !(found->second == byte))
      return true;
  }
  bool conflict = false;
  forEachAbsolute(memory, other.memory, [&](uint64_t address) {
    MemoryByte mine = concrete.absoluteByte(memory, address);
    MemoryByte theirs = concrete.absoluteByte(other.memory, address);
    if (isKnown(mine) && isKnown(theirs) && !(mine == theirs))
      conflict = true;
  });
  return conflict;
}

unsigned Context::widen(const Context &other, const ConcreteMemory &concrete) {
  unsigned forgotten = 0;
  auto widenValue = [&](AbstractValue &mine, const AbstractValue &theirs) {
    if (!mine.isSymbolic() && !(mine == theirs)) {
      mine = AbstractValue{};
      ++forgotten;
    }
  };
  for (unsigned i = 0; i < NumGprs; ++i)
    widenValue(gprs[i], other.gprs[i]);
  for (unsigned i = 0; i < NumFlags; ++i)
    widenValue(flags[i], other.flags[i]);
  for (auto it = memory.stack.begin(); it != memory.stack.end();) {
    auto found = other.memory.stack.find(it->first);
    if (found != other.memory.stack.end() && found->second == it->second) {
      ++it;
    } else {
      it = memory.stack.erase(it);
      ++forgotten;
    }
  }
  std::vector<std::pair<uint64_t, MemoryByte>> absolute;
  forEachAbsolute(memory, other.memory, [&](uint64_t address) {
    MemoryByte mine = concrete.absoluteByte(memory, address);
    MemoryByte theirs = concrete.absoluteByte(other.memory, address);
    if (mine == theirs) {
      absolute.emplace_back(address, mine);
    } else {
      absolute.emplace_back(address, MemoryByte{});
      ++forgotten;
    }
  });
  memory.clobberedSections.insert(other.memory.clobberedSections.begin(),
                                  other.memory.clobberedSections.end());
  memory.absolute.clear();
  memory.absolute.insert(absolute.begin(), absolute.end());
  concrete.normalize(memory);
  return forgotten;
}

} // namespace hoist
