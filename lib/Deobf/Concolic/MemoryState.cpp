#include "Deobf/Concolic/MemoryState.h"

#include <llvm/ADT/Hashing.h>

namespace hoist {

void MemoryState::forgetValues() {
  for (auto it = stack.begin(); it != stack.end();) {
    // An unknown stack byte is the same as one not listed: the block loads it.
    if (it->second.kind == MemoryByte::Kind::Value || it->second.kind == MemoryByte::Kind::Unknown)
      it = stack.erase(it);
    else
      ++it;
  }
  for (auto &[address, byte] : absolute)
    if (byte.kind == MemoryByte::Kind::Value)
      byte = MemoryByte{};
}

void MemoryState::dropStackBelow(int64_t offset) {
  stack.erase(stack.begin(), stack.lower_bound(offset));
  returnSlots.erase(returnSlots.begin(), returnSlots.lower_bound(offset));
}

uint64_t MemoryState::hash() const {
  llvm::hash_code code = llvm::hash_value(stack.size());
  auto mix = [&](uint64_t location, const MemoryByte &byte) {
    code = llvm::hash_combine(code, location, static_cast<uint8_t>(byte.kind), byte.byte,
                              byte.index, byte.reg, byte.stackOffset);
  };
  for (const auto &[offset, byte] : stack)
    mix(static_cast<uint64_t>(offset), byte);
  for (const auto &[address, byte] : absolute)
    mix(address, byte);
  for (uint64_t section : clobberedSections)
    code = llvm::hash_combine(code, section);
  return code;
}

} // namespace hoist
