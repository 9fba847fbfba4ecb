#include "Discover/StoredValues.h"

#include "Decode/Decoder.h"

#include <algorithm>
#include <cstring>

namespace hoist {
namespace {

/// An access of `size` bytes at `at` touches some byte of [address, address + bytes).
bool overlaps(uint64_t at, uint64_t size, uint64_t address, unsigned bytes) {
  return at < address + bytes && address < at + size;
}

/// What one decoded instruction does to the variable.
enum class Use { None, Read, StoresConstant, Other };

Use useOf(const Instr &instr, bool absolute, uint64_t address, unsigned bytes,
          uint64_t &stored) {
  Use use = Use::None;
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &op = instr.op(i);
    if (op.isImm() && absolute && !op.immRelative && overlaps(op.imm, 1, address, bytes))
      return Use::Other;   // `mov edi, offset var`: its address taken
    if (!op.isMem() || op.index != ZYDIS_REGISTER_NONE)
      continue;
    uint64_t at = 0;
    if (op.base == ZYDIS_REGISTER_RIP)
      at = instr.next() + static_cast<uint64_t>(op.disp);
    else if (op.base == ZYDIS_REGISTER_NONE && absolute)
      at = static_cast<uint64_t>(op.disp);
    else
      continue;
    if (op.isAgen) {
      if (overlaps(at, 1, address, bytes))
        return Use::Other;   // `lea rdi, [rip+var]`
      continue;
    }
    if (!overlaps(at, op.bits / 8, address, bytes))
      continue;
    if (!op.written) {
      use = Use::Read;
      continue;
    }
    const Operand &source = instr.op(1);
    if (instr.mnemonic != ZYDIS_MNEMONIC_MOV || i != 0 || !source.isImm() || at != address ||
        op.bits != bytes * 8)
      return Use::Other;
    stored = bytes == 8 ? source.imm : source.imm & ((uint64_t(1) << (bytes * 8)) - 1);
    use = Use::StoresConstant;
  }
  return use;
}

} // namespace

std::optional<std::set<uint64_t>> storedValues(const Image &image, uint64_t address,
                                               unsigned bytes) {
  const Section *home = image.sectionAt(address);
  if (!home || !home->writable || home->executable || bytes == 0 || bytes > 8 ||
      image.copiedObjectAt(address))
    return std::nullopt;
  for (const Symbol &symbol : image.symbols())
    if (symbol.source == Symbol::Source::Dynamic &&
        overlaps(symbol.address, std::max<uint64_t>(symbol.size, 1), address, bytes))
      return std::nullopt;   // another module may write it
  for (const Export &exported : image.exports())
    if (overlaps(exported.address, 1, address, bytes))
      return std::nullopt;
  // A pointer to it in data.
  for (const auto &[slot, pointer] : image.relocatedPointers())
    if (overlaps(pointer, 1, address, bytes) || overlaps(slot, 8, address, bytes))
      return std::nullopt;
  for (uint64_t slot : image.possiblePointers()) {
    uint64_t pointer = 0;
    if (image.read(slot, &pointer, 8) && overlaps(pointer, 1, address, bytes))
      return std::nullopt;
  }
  for (const SymbolPointer &pointer : image.symbolPointers())
    if (overlaps(pointer.slot, 8, address, bytes))
      return std::nullopt;
  uint64_t initial = 0;
  if (!image.read(address, &initial, bytes))
    return std::nullopt;
  std::set<uint64_t> values{initial};

  bool absolute = !image.isPositionIndependent();
  Decoder decoder;
  for (const Section &section : image.sections()) {
    if (!section.mapped || !section.executable)
      continue;
    llvm::ArrayRef<uint8_t> code = image.bytesAt(section.address);
    for (size_t field = 1; field + 4 <= code.size(); ++field) {
      int32_t disp = 0;
      std::memcpy(&disp, code.data() + field, 4);
      uint64_t fieldEnd = section.address + field + 4;
      // An access reaches the variable from at most 8 bytes below it; an immediate of at
      // most 4 bytes may follow the displacement.
      auto near = [&](uint64_t at) { return at + 8 > address && at < address + bytes; };
      bool candidate = absolute && near(static_cast<uint64_t>(static_cast<int64_t>(disp)));
      for (unsigned tail : {0u, 1u, 2u, 4u})
        candidate |= near(fieldEnd + tail + static_cast<uint64_t>(static_cast<int64_t>(disp)));
      if (!candidate)
        continue;
      // Every instruction that may hold this field, whatever the true instruction starts are.
      for (size_t start = field >= 14 ? field - 14 : 0; start < field; ++start) {
        Instr instr;
        if (decoder.decode(code.data() + start, code.size() - start, section.address + start,
                           instr) != DecodeStatus::Ok ||
            start + instr.length < field + 4)
          continue;
        uint64_t stored = 0;
        switch (useOf(instr, absolute, address, bytes, stored)) {
        case Use::Other:
          return std::nullopt;
        case Use::StoresConstant:
          values.insert(stored);
          break;
        default:
          break;
        }
      }
    }
  }
  return values;
}

} // namespace hoist
