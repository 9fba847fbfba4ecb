// Decoded instructions remembered by their bytes, so that the bytes a program repeats (push rbp,
// mov rdi, rbx, test eax, eax, ret, ...) are decoded by Zydis once.
//
// In 64-bit mode an instruction's decoding depends on its bytes alone: a relative branch keeps
// its displacement and a RIP-relative operand its displacement (Instr.h), so only `address`
// differs between two places holding the same bytes. And Zydis reads exactly the instruction's
// bytes: when the bytes at hand begin with the bytes of an instruction decoded before, they
// decode to that instruction, whatever follows. The lifter decodes every instruction it lifts a
// second time (lib/Discover/Redecode.h), and on bash two thirds of them repeat bytes seen before;
// Zydis is about 1,500 machine instructions per decode, a hit here about a tenth of that.
#pragma once

#include "Decode/Decoder.h"

#include <array>
#include <memory>

namespace hoist {

class DecodeMemo {
public:
  DecodeMemo();
  ~DecodeMemo();
  DecodeMemo(const DecodeMemo &) = delete;
  DecodeMemo &operator=(const DecodeMemo &) = delete;

  /// What `decoder.decodeIntoFresh(bytes, size, address, out)` returns and writes to `out` (a
  /// default-constructed Instr), taken from an earlier decode of the same leading bytes when
  /// there was one.
  DecodeStatus decodeIntoFresh(const Decoder &decoder, const uint8_t *bytes, size_t size,
                               uint64_t address, Instr &out);

  /// Look-ups answered from the memo and decodes done, for tests and figures.
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

private:
  // A set-associative cache: the first three bytes choose a set of `Ways` entries, each entry
  // keyed by its whole instruction (length and bytes). 4,096 sets of 4 entries hold 16,384
  // instructions (about 9 MiB, touched only as they fill); on bash's linear sweep that answers
  // 56% of the look-ups (an unbounded memo: 68%).
  static constexpr unsigned SetBits = 12;
  static constexpr unsigned Sets = 1u << SetBits;
  static constexpr unsigned Ways = 4;
  static constexpr size_t KeyBytes = 3;

  struct Key {
    uint8_t length = 0;   ///< 0: the entry is empty
    std::array<uint8_t, 15> bytes{};
  };
  struct Set {
    std::array<Key, Ways> keys;
    /// Entry indices, most recently used first.
    std::array<uint8_t, Ways> order{0, 1, 2, 3};
  };

  static unsigned setOf(const uint8_t *bytes);
  Instr *entry(unsigned set, unsigned way);

  std::unique_ptr<Set[]> sets_;
  /// Sets * Ways instructions, written only where a key is set (raw storage: constructing
  /// them all would write every page up front).
  std::unique_ptr<std::byte[]> entries_;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

} // namespace hoist
