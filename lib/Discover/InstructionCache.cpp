#include "Discover/InstructionCache.h"

namespace hoist {

const DecodedAt *InstructionCache::at(uint64_t address) {
  if (isReservedAddress(address))
    return nullptr;
  auto [it, inserted] = cache_.try_emplace(address);
  if (!inserted)
    return it->second.get();
  if (!image_.isExecutable(address))
    return nullptr;
  llvm::ArrayRef<uint8_t> bytes = image_.bytesAt(address);
  if (bytes.empty())
    return nullptr;
  auto decoded = std::make_unique<DecodedAt>();
  decoded->status = decoder_.decode(bytes.data(), bytes.size(), address, decoded->instr);
  it->second = std::move(decoded);
  return it->second.get();
}

} // namespace hoist
