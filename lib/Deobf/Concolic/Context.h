// The concrete context of a block instance: what is known of the general-purpose registers,
// the status flags and memory where the instance begins. Two arrivals at one address with
// equal contexts are one instance; different contexts are different instances (a VM's
// handler once per virtual PC).
#pragma once

#include "Deobf/Concolic/AbstractValue.h"
#include "Deobf/Concolic/MemoryState.h"

#include <array>
#include <cstdint>

namespace hoist {

class ConcreteMemory;

struct Context {
  static constexpr unsigned NumGprs = 16;
  static constexpr unsigned NumFlags = 7;   ///< CF PF AF ZF SF DF OF, as in Var
  std::array<AbstractValue, NumGprs> gprs;
  std::array<AbstractValue, NumFlags> flags;
  MemoryState memory;

  bool operator==(const Context &other) const {
    return gprs == other.gprs && flags == other.flags && memory == other.memory;
  }
  uint64_t hash() const;
  /// Whether every slot this context knows has the same value in `other`: an instance with
  /// this context may stand for an arrival with `other` (its unknown slots take any value).
  bool covers(const Context &other, const ConcreteMemory &memory) const;
  /// Whether some slot is known in both contexts with different values.
  bool conflicts(const Context &other, const ConcreteMemory &memory) const;
  /// Forgets every slot whose value differs in `other`; returns how many it forgot.
  unsigned widen(const Context &other, const ConcreteMemory &memory);
};

} // namespace hoist
