// The memory concolic lifting knows along one path: bytes of the stack (by offset from the
// entry RSP) and of concrete absolute memory (the image, --concrete-memory), each a constant,
// a byte of a stored pointer into the stack, a byte of a stored symbolic value, a byte of a
// register's value at function entry (a callee-saved register pushed), or unknown.
// Memory not listed here is what the image holds (absolute) or simply not known (stack).
#pragma once

#include <llvm/IR/Value.h>

#include <cstdint>
#include <map>
#include <set>

namespace hoist {

struct MemoryByte {
  enum class Kind : uint8_t { Constant, StackPointer, Value, EntryRegister, Unknown };
  Kind kind = Kind::Unknown;
  uint8_t byte = 0;    ///< Constant
  uint8_t index = 0;   ///< StackPointer, Value, EntryRegister: which byte of the stored value
  uint8_t size = 0;    ///< StackPointer, Value, EntryRegister: the stored value's size in bytes
  uint8_t reg = 0;     ///< EntryRegister: the general-purpose register (Var numbering)
  int64_t stackOffset = 0;         ///< StackPointer: the pointer's offset from the entry RSP
  llvm::Value *value = nullptr;    ///< Value: valid only in the block instance that stored it

  bool operator==(const MemoryByte &other) const {
    return kind == other.kind && byte == other.byte && index == other.index &&
           size == other.size && reg == other.reg && stackOffset == other.stackOffset &&
           value == other.value;
  }
};

struct MemoryState {
  std::map<int64_t, MemoryByte> stack;
  std::map<uint64_t, MemoryByte> absolute;
  /// Writable image sections (by start) that code outside the lifted function may have
  /// written: their bytes are unknown unless stored since.
  std::set<uint64_t> clobberedSections;
  /// Stack slots holding the return addresses of inlined calls: a callee given a pointer into
  /// the stack is assumed not to overwrite them.
  std::set<int64_t> returnSlots;
  /// Addresses of writable data the path read as the file's bytes only because
  /// --concrete-memory assumes them: the branches it decides after them say so. Not part of
  /// the context's identity.
  std::set<uint64_t> assumedReads;

  /// What is left at a block boundary: symbolic values do not dominate the next block, so
  /// their bytes become unknown (the stores were emitted; the next block loads them).
  void forgetValues();
  /// Forgets the stack below `offset` (popped, dead).
  void dropStackBelow(int64_t offset);
  bool operator==(const MemoryState &other) const {
    return stack == other.stack && absolute == other.absolute &&
           clobberedSections == other.clobberedSections;
  }
  uint64_t hash() const;
};

} // namespace hoist
