#include "Discover/StackDepth.h"

#include "Decode/Decoder.h"

#include <map>

namespace hoist {
namespace {

/// The change a push, pop, `sub rsp, imm`, `add rsp, imm` or `lea rsp, [rsp+d]` makes to rsp;
/// nullopt for any other write of rsp (`leave`, `mov rsp, rbp`, `and rsp, -16`), 0 for an
/// instruction that leaves it (a call returns with rsp as it was).
std::optional<int64_t> stackChange(const Instr &instr) {
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_PUSH:
  case ZYDIS_MNEMONIC_PUSHFQ:
    return -int64_t(instr.operandWidth / 8);
  case ZYDIS_MNEMONIC_POP:
  case ZYDIS_MNEMONIC_POPFQ:
    if (instr.op(0).isReg() && instr.op(0).reg == ZYDIS_REGISTER_RSP)
      return std::nullopt;
    return int64_t(instr.operandWidth / 8);
  case ZYDIS_MNEMONIC_CALL:
    return 0;
  default:
    break;
  }
  const Operand &dst = instr.op(0), &src = instr.op(1);
  bool toRsp = dst.isReg() && dst.reg == ZYDIS_REGISTER_RSP;
  if (toRsp && src.isImm() && instr.mnemonic == ZYDIS_MNEMONIC_SUB)
    return -static_cast<int64_t>(src.imm);
  if (toRsp && src.isImm() && instr.mnemonic == ZYDIS_MNEMONIC_ADD)
    return static_cast<int64_t>(src.imm);
  if (toRsp && instr.mnemonic == ZYDIS_MNEMONIC_LEA && src.base == ZYDIS_REGISTER_RSP &&
      src.index == ZYDIS_REGISTER_NONE)
    return src.disp;
  for (unsigned i = 0; i < instr.operandCount; ++i)
    if (instr.op(i).isReg() && instr.op(i).written &&
        ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, instr.op(i).reg) ==
            ZYDIS_REGISTER_RSP)
      return std::nullopt;
  return 0;
}

} // namespace

void forEachInstructionWithStackDepth(
    const Image &image, const DiscoveredFunction &function,
    llvm::function_ref<void(const Instr &, std::optional<int64_t>)> visit) {
  const auto &blocks = function.explored.blocks;
  Decoder decoder;
  // Block start -> rsp relative to the entry's; nullopt where the ways in disagree or an
  // instruction sets rsp otherwise.
  std::map<uint64_t, std::optional<int64_t>> depth{{function.explored.entry, 0}};
  std::vector<uint64_t> work{function.explored.entry};
  while (!work.empty()) {
    uint64_t at = work.back();
    work.pop_back();
    auto block = blocks.find(at);
    if (block == blocks.end())
      continue;
    std::optional<int64_t> offset = depth[at];
    // Program discovery keeps the blocks' extents, not their instructions.
    for (uint64_t address = at; address < block->second.endAddress;) {
      llvm::ArrayRef<uint8_t> bytes = image.bytesAt(address);
      Instr instr;
      if (decoder.decode(bytes.data(), bytes.size(), address, instr) != DecodeStatus::Ok) {
        offset.reset();
        break;
      }
      address = instr.next();
      visit(instr, offset);
      if (!offset)
        continue;
      if (std::optional<int64_t> change = stackChange(instr))
        *offset += *change;
      else
        offset.reset();
    }
    for (uint64_t next : block->second.successors) {
      auto [known, inserted] = depth.try_emplace(next, offset);
      if (!inserted && known->second && known->second != offset)
        known->second.reset();
      else if (!inserted)
        continue;
      work.push_back(next);
    }
  }
}

std::vector<std::optional<int64_t>>
stackDepthsAtJumpsTo(const Image &image, const DiscoveredFunction &function, uint64_t target) {
  std::vector<std::optional<int64_t>> depths;
  forEachInstructionWithStackDepth(
      image, function, [&](const Instr &instr, std::optional<int64_t> offset) {
        bool branch =
            instr.mnemonic == ZYDIS_MNEMONIC_JMP || instr.category == ZYDIS_CATEGORY_COND_BR;
        if (branch && instr.op(0).isImm() && instr.next() + instr.op(0).imm == target)
          depths.push_back(offset);
      });
  return depths;
}

} // namespace hoist
