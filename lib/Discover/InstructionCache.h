// Each address of an image is decoded once; every later look-up is a hash-map hit.
#pragma once

#include "Decode/Decoder.h"
#include "hoist/Image.h"

#include <llvm/ADT/DenseMap.h>

namespace hoist {

struct DecodedAt {
  DecodeStatus status;
  Instr instr;   ///< valid when status is Ok
};

class InstructionCache {
public:
  explicit InstructionCache(const Image &image) : image_(image) {}

  /// The instruction at `address`, or null when the address holds no executable bytes.
  const DecodedAt *at(uint64_t address);
  /// The two highest addresses never hold code here: llvm::DenseMap reserves them as its empty
  /// and tombstone keys, and a hostile image's jump or fall-through reaches them (an
  /// instruction that ends at the top of the address space). Address-keyed DenseMaps and
  /// DenseSets must not see them.
  static bool isReservedAddress(uint64_t address) {
    return address >= llvm::DenseMapInfo<uint64_t>::getTombstoneKey();
  }
  /// Addresses looked up so far (decoded or not).
  size_t size() const { return cache_.size(); }

private:
  const Image &image_;
  Decoder decoder_;
  llvm::DenseMap<uint64_t, std::unique_ptr<DecodedAt>> cache_;
};

} // namespace hoist
