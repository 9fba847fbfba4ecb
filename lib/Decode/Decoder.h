// Decodes x86-64 machine code into Instr values (64-bit long mode, Zydis underneath).
#pragma once

#include "Decode/Instr.h"

#include <cstddef>
#include <cstdint>

namespace hoist {

enum class DecodeStatus {
  Ok,
  NoMoreData,   ///< the bytes end in the middle of an instruction
  Invalid,      ///< no instruction encodes as these bytes
};
const char *decodeStatusMessage(DecodeStatus status);

class Decoder {
public:
  Decoder();
  /// Decodes the instruction at `bytes` (at most `size` bytes are read), located at `address`.
  DecodeStatus decode(const uint8_t *bytes, size_t size, uint64_t address, Instr &out) const;
  /// The same into an `out` that is default-constructed (a fresh element of a buffer), which
  /// is not reset again: the reset was a sixth of the conversion around Zydis, paid for every
  /// instruction the lifter decodes again.
  DecodeStatus decodeIntoFresh(const uint8_t *bytes, size_t size, uint64_t address,
                               Instr &out) const;

private:
  DecodeStatus decode(const uint8_t *bytes, size_t size, uint64_t address, Instr &out,
                      bool reset) const;

  ZydisDecoder decoder_;
};

} // namespace hoist
