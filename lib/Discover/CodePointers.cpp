#include "Discover/CodePointers.h"

#include <llvm/ADT/StringRef.h>

#include <cstring>

namespace hoist {
namespace {

constexpr uint16_t BaseRelocationDir64 = 10;   // IMAGE_REL_BASED_DIR64
constexpr uint64_t MaxWordsScanned = 1u << 24; // a bound on any input

bool scannedForPointers(const Section &section) {
  llvm::StringRef name = section.name;
  return section.mapped && !section.executable && section.fileSize &&
         !name.starts_with(".eh_frame") && !name.starts_with(".rela") &&
         !name.starts_with(".dyn") && !name.starts_with(".gnu") && name != ".reloc" &&
         name != ".pdata" && name != ".xdata" && name != ".hash" && name != ".interp" &&
         !name.starts_with(".note");
}

void scanWords(const Image &image, const Section &section, std::set<uint64_t> &out,
               uint64_t &budget) {
  llvm::ArrayRef<uint8_t> bytes = image.bytesAt(section.address);
  uint64_t size = std::min<uint64_t>(bytes.size(), section.fileSize);
  uint64_t first = (8 - section.address % 8) % 8;
  for (uint64_t offset = first; offset + 8 <= size && budget; offset += 8, --budget) {
    uint64_t value = 0;
    std::memcpy(&value, bytes.data() + offset, 8);
    if (value && mayStartFunction(image, value))
      out.insert(value);
  }
}

void relocatedPointers(const Image &image, std::set<uint64_t> &out, uint64_t &budget) {
  for (const auto &[slot, pointer] : image.relocatedPointers()) {
    if (!budget)
      return;
    --budget;
    if (mayStartFunction(image, pointer))
      out.insert(pointer);
  }
}

/// .reloc: blocks of {page RVA, block size, entries of (type << 12 | offset)}.
void baseRelocations(const Image &image, const Section &section, std::set<uint64_t> &out,
                     uint64_t &budget) {
  uint64_t offset = 0;
  while (offset + 8 <= section.fileSize && budget) {
    uint32_t header[2];
    if (!image.read(section.address + offset, header, sizeof header) || header[1] < 8 ||
        header[1] > section.fileSize - offset)
      return;
    for (uint64_t at = 8; at + 2 <= header[1] && budget; at += 2, --budget) {
      uint16_t entry = 0;
      image.read(section.address + offset + at, &entry, 2);
      uint64_t slot = image.imageBase() + header[0] + (entry & 0xfff), value = 0;
      if (entry >> 12 == BaseRelocationDir64 && image.read(slot, &value, 8) &&
          mayStartFunction(image, value))
        out.insert(value);
    }
    offset += header[1];
  }
}

} // namespace

bool mayStartFunction(const Image &image, uint64_t address) {
  if (!image.isExecutable(address) || image.importAtStub(address))
    return false;
  return !llvm::StringRef(image.sectionAt(address)->name).starts_with(".plt");
}

bool startsWithZeroBytes(const Image &image, uint64_t address) {
  uint16_t first = 0xffff;
  return image.read(address, &first, 2) && first == 0;
}

DataPointers codePointersInData(const Image &image) {
  DataPointers out;
  uint64_t budget = MaxWordsScanned;
  // In an image that can be moved, every pointer is relocated at load time, so the relocations
  // list them all; a word that merely looks like a code address there is an integer.
  bool relocatable = image.isPositionIndependent() || image.isLibrary();
  for (const Section &section : image.sections())
    if (image.format() == ImageFormat::Pe && section.name == ".reloc" && section.fileSize)
      relocatable = true;
  relocatedPointers(image, out.relocated, budget);
  for (const Section &section : image.sections()) {
    if (image.format() == ImageFormat::Pe && section.name == ".reloc")
      baseRelocations(image, section, out.relocated, budget);
    if (!relocatable && scannedForPointers(section))
      scanWords(image, section, out.words, budget);
  }
  return out;
}

void collectCodeReferences(const Image &image, const ExploredFunction &function,
                           std::set<uint64_t> &out) {
  if (function.blocks.empty())
    return;
  uint64_t low = function.blocks.begin()->first, high = low;
  for (const auto &[start, block] : function.blocks)
    high = std::max(high, block.endAddress);
  bool absoluteImmediates = image.format() == ImageFormat::Elf && !image.isPositionIndependent();
  auto consider = [&](uint64_t address) {
    if ((address < low || address >= high) && mayStartFunction(image, address))
      out.insert(address);
  };
  for (const auto &[start, block] : function.blocks)
    for (const Instr *instr : block.instrs) {
      for (unsigned i = 0; i < instr->explicitCount; ++i) {
        const Operand &op = instr->op(i);
        if (op.isMem() && op.isAgen && op.base == ZYDIS_REGISTER_RIP &&
            op.index == ZYDIS_REGISTER_NONE)
          consider(instr->next() + op.disp);
        else if (op.isImm() && !op.immRelative && absoluteImmediates &&
                 instr->mnemonic == ZYDIS_MNEMONIC_MOV)
          consider(op.imm);
      }
    }
}

} // namespace hoist
