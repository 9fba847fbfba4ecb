#include "Discover/Redecode.h"

namespace hoist {

std::optional<RedecodedFunction> redecode(const Image &image, const Decoder &decoder,
                                          const ExploredFunction &discovered) {
  RedecodedFunction result{discovered, std::make_unique<std::vector<Instr>>()};
  std::vector<Instr> &instructions = *result.instructions;
  // Decoded first, pointed to after: the vector reallocates while it grows.
  std::vector<std::pair<MachineBlock *, size_t>> firstOfBlock;
  for (auto &[start, block] : result.explored.blocks) {
    firstOfBlock.emplace_back(&block, instructions.size());
    for (uint64_t address = start; address < block.endAddress;) {
      llvm::ArrayRef<uint8_t> bytes = image.bytesAt(address);
      Instr &instr = instructions.emplace_back();
      if (bytes.empty() ||
          decoder.decode(bytes.data(), bytes.size(), address, instr) != DecodeStatus::Ok)
        return std::nullopt;
      address = instr.next();
      if (address > block.endAddress)
        return std::nullopt;
    }
  }
  for (size_t i = 0; i < firstOfBlock.size(); ++i) {
    auto [block, first] = firstOfBlock[i];
    size_t end = i + 1 < firstOfBlock.size() ? firstOfBlock[i + 1].second : instructions.size();
    block->instrs.clear();
    for (size_t at = first; at < end; ++at)
      block->instrs.push_back(&instructions[at]);
  }
  return result;
}

} // namespace hoist
