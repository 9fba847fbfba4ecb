#include "Decode/DecodeMemo.h"

#include <cstring>
#include <type_traits>

namespace hoist {

// Entries are copied in and out as bytes.
static_assert(std::is_trivially_copyable_v<Instr>);

DecodeMemo::DecodeMemo()
    : sets_(std::make_unique<Set[]>(Sets)),
      entries_(new std::byte[size_t(Sets) * Ways * sizeof(Instr)]) {}

DecodeMemo::~DecodeMemo() = default;

unsigned DecodeMemo::setOf(const uint8_t *bytes) {
  uint32_t key = uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 | uint32_t(bytes[2]) << 16;
  return (key * 0x9E3779B1u) >> (32 - SetBits);   // Fibonacci hashing
}

Instr *DecodeMemo::entry(unsigned set, unsigned way) {
  return reinterpret_cast<Instr *>(entries_.get() + (size_t(set) * Ways + way) * sizeof(Instr));
}

DecodeStatus DecodeMemo::decodeIntoFresh(const Decoder &decoder, const uint8_t *bytes, size_t size,
                                uint64_t address, Instr &out) {
  if (size < KeyBytes)
    return decoder.decodeIntoFresh(bytes, size, address, out);
  unsigned setIndex = setOf(bytes);
  Set &set = sets_[setIndex];
  for (unsigned i = 0; i < Ways; ++i) {
    unsigned way = set.order[i];
    const Key &key = set.keys[way];
    if (key.length == 0 || key.length > size ||
        std::memcmp(key.bytes.data(), bytes, key.length) != 0)
      continue;
    std::memcpy(static_cast<void *>(&out), entry(setIndex, way), sizeof(Instr));
    out.address = address;
    // Most recently used first.
    for (; i > 0; --i)
      set.order[i] = set.order[i - 1];
    set.order[0] = static_cast<uint8_t>(way);
    ++hits_;
    return DecodeStatus::Ok;
  }
  ++misses_;
  DecodeStatus status = decoder.decodeIntoFresh(bytes, size, address, out);
  if (status != DecodeStatus::Ok)
    return status;
  // The least recently used entry makes room.
  unsigned way = set.order[Ways - 1];
  for (unsigned i = Ways - 1; i > 0; --i)
    set.order[i] = set.order[i - 1];
  set.order[0] = static_cast<uint8_t>(way);
  Key &key = set.keys[way];
  key.length = out.length;
  std::memcpy(key.bytes.data(), bytes, out.length);
  std::memcpy(static_cast<void *>(entry(setIndex, way)), &out, sizeof(Instr));
  return status;
}

} // namespace hoist
