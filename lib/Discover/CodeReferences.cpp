#include "Discover/CodeReferences.h"

#include <cstring>

namespace hoist {

std::optional<uint64_t> firstCodeReference(const Image &image, uint64_t begin, uint64_t end) {
  bool absolute = !image.isPositionIndependent();
  std::optional<uint64_t> first;
  auto consider = [&](uint64_t address) {
    if (address >= begin && address < end && (!first || address < *first))
      first = address;
  };
  for (const Section &section : image.sections()) {
    if (!section.mapped || !section.executable)
      continue;
    llvm::ArrayRef<uint8_t> code = image.bytesAt(section.address);
    for (size_t field = 2; field + 4 <= code.size(); ++field) {
      uint64_t at = section.address + field;
      if (at + 4 > begin && at < end)
        continue;   // the range's own bytes (a table in a code section)
      int32_t disp = 0;
      std::memcpy(&disp, code.data() + field, 4);
      auto offset = static_cast<uint64_t>(static_cast<int64_t>(disp));
      uint8_t before = code[field - 1];
      // RIP-relative: a ModRM of mod 00, r/m 101 right before the displacement.
      if ((before & 0xc7) == 0x05)
        consider(at + 4 + offset);
      // Absolute, `[T + index*scale]`: a ModRM of mod 00, r/m 100, then a SIB with base 101.
      if (absolute && (code[field - 2] & 0xc7) == 0x04 && (before & 0x07) == 0x05)
        consider(offset);
    }
  }
  return first;
}

} // namespace hoist
