// A linear sweep over the executable sections of an image: the same bytes for the Zydis
// baseline and for Hoist's decoder, so that their figures compare. A template, so that the
// baseline's loop stays as tight as Zydis's own API allows (no call through a pointer).
#pragma once

#include "hoist/Image.h"

#include <algorithm>
#include <cstdint>

namespace hoist::bench {

/// Calls `decodeAt(bytes, size, address)` at every instruction of every mapped executable
/// section; it returns the instruction's length, or 0 for bytes that do not decode (the sweep
/// then moves on by one byte, as objdump does). Returns the number of instructions decoded.
template <typename DecodeAt>
uint64_t sweepExecutableSections(const Image &image, DecodeAt &&decodeAt) {
  uint64_t instructions = 0;
  for (const Section &section : image.sections()) {
    if (!section.mapped || !section.executable)
      continue;
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(section.address);
    size_t size = std::min<uint64_t>(bytes.size(), section.fileSize);
    for (size_t offset = 0; offset < size;) {
      unsigned length = decodeAt(bytes.data() + offset, size - offset, section.address + offset);
      if (length == 0) {
        ++offset;
        continue;
      }
      offset += length;
      ++instructions;
    }
  }
  return instructions;
}

} // namespace hoist::bench
