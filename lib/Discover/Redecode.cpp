#include "Discover/Redecode.h"

namespace hoist {

std::optional<ExploredFunction> redecode(const Image &image, const Decoder &decoder,
                                         const ExploredFunction &discovered,
                                         std::vector<Instr> &buffer) {
  ExploredFunction result = discovered;
  buffer.clear();
  // Decoded first, pointed to after: the vector may still reallocate while it grows.
  std::vector<std::pair<MachineBlock *, size_t>> firstOfBlock;
  firstOfBlock.reserve(result.blocks.size());
  for (auto &[start, block] : result.blocks) {
    firstOfBlock.emplace_back(&block, buffer.size());
    // The section's bytes are looked up once per block, not per instruction (a block that
    // runs on into the next section looks its bytes up there).
    llvm::ArrayRef<uint8_t> blockBytes = image.bytesAt(start);
    for (uint64_t address = start; address < block.endAddress;) {
      llvm::ArrayRef<uint8_t> bytes = address - start < blockBytes.size()
                                          ? blockBytes.drop_front(address - start)
                                          : image.bytesAt(address);
      Instr &instr = buffer.emplace_back();
      if (bytes.empty() ||
          decoder.decodeIntoFresh(bytes.data(), bytes.size(), address, instr) != DecodeStatus::Ok)
        return std::nullopt;
      address = instr.next();
      if (address > block.endAddress)
        return std::nullopt;
    }
  }
  for (size_t i = 0; i < firstOfBlock.size(); ++i) {
    auto [block, first] = firstOfBlock[i];
    size_t end = i + 1 < firstOfBlock.size() ? firstOfBlock[i + 1].second : buffer.size();
    block->instrs.clear();
    block->instrs.reserve(end - first);
    for (size_t at = first; at < end; ++at)
      block->instrs.push_back(&buffer[at]);
  }
  return result;
}

} // namespace hoist
