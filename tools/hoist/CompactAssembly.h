// Machine instructions as Hoist's IR comments and reports print them: Intel syntax with
// addresses as short hex (`js 0x118e`, not Zydis's default `js 0x000000000000118E`), read
// straight from the image's bytes.
#pragma once

#include "hoist/Image.h"

#include <Zydis/Zydis.h>

#include <cstdint>
#include <optional>
#include <string>

namespace hoist {

struct Disassembled {
  std::string text;
  uint64_t next = 0;
  /// Ends straight-line code: what follows it is reached, if at all, by a jump to it.
  bool endsRun = false;
  /// Filler a compiler puts between blocks it aligns (`nop`, `int3`).
  bool isPadding = false;
};

/// Decodes and formats one instruction at a time (`--annotate`, `hoist report`).
class CompactDisassembler {
public:
  CompactDisassembler() {
    ZydisDecoderInit(&decoder_, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisFormatterInit(&formatter_, ZYDIS_FORMATTER_STYLE_INTEL);
    ZydisFormatterSetProperty(&formatter_, ZYDIS_FORMATTER_PROP_ADDR_PADDING_ABSOLUTE,
                              ZYDIS_PADDING_DISABLED);
    ZydisFormatterSetProperty(&formatter_, ZYDIS_FORMATTER_PROP_ADDR_PADDING_RELATIVE,
                              ZYDIS_PADDING_DISABLED);
    ZydisFormatterSetProperty(&formatter_, ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE);
  }

  std::optional<Disassembled> at(const Image &image, uint64_t address) const {
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(address);
    ZydisDecodedInstruction instruction;
    ZydisDecodedOperand operands[ZYDIS_MAX_OPERAND_COUNT];
    char text[256];
    if (bytes.empty() ||
        !ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder_, bytes.data(), bytes.size(), &instruction,
                                             operands)) ||
        !ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&formatter_, &instruction, operands,
                                                      instruction.operand_count_visible, text,
                                                      sizeof text, address, nullptr)))
      return std::nullopt;
    ZydisMnemonic mnemonic = instruction.mnemonic;
    return Disassembled{
        .text = text,
        .next = address + instruction.length,
        .endsRun = mnemonic == ZYDIS_MNEMONIC_JMP || mnemonic == ZYDIS_MNEMONIC_RET ||
                   mnemonic == ZYDIS_MNEMONIC_UD2 || mnemonic == ZYDIS_MNEMONIC_HLT ||
                   mnemonic == ZYDIS_MNEMONIC_INT3,
        .isPadding = mnemonic == ZYDIS_MNEMONIC_NOP || mnemonic == ZYDIS_MNEMONIC_INT3};
  }

private:
  ZydisDecoder decoder_;
  ZydisFormatter formatter_;
};

} // namespace hoist
