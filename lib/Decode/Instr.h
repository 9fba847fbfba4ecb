// One decoded x86-64 instruction as a small value type: what the semantics need and nothing
// tied to LLVM. Made by the Decoder (Zydis), cached by address, read by lib/Semantics.
#pragma once

#include <Zydis/Zydis.h>

#include <array>
#include <cstdint>
#include <string>

namespace hoist {

/// Status flags as RFLAGS bit masks (the same bits Zydis reports).
enum FlagMask : uint32_t {
  FlagCF = 1u << 0,
  FlagPF = 1u << 2,
  FlagAF = 1u << 4,
  FlagZF = 1u << 6,
  FlagSF = 1u << 7,
  FlagDF = 1u << 10,
  FlagOF = 1u << 11,
  StatusFlags = FlagCF | FlagPF | FlagAF | FlagZF | FlagSF | FlagOF,
};

struct Operand {
  enum class Kind : uint8_t { None, Reg, Mem, Imm, Ptr };
  Kind kind = Kind::None;
  bool explicitOperand = true; ///< false for implicit/hidden operands (e.g. rax of cqo)
  bool read = false;
  bool written = false;
  uint16_t bits = 0;           ///< operand size in bits

  // Kind::Reg
  ZydisRegister reg = ZYDIS_REGISTER_NONE;

  // Kind::Mem: segment:[base + index*scale + disp]; `isAgen` for lea-style address operands.
  ZydisRegister segment = ZYDIS_REGISTER_NONE;
  ZydisRegister base = ZYDIS_REGISTER_NONE;
  ZydisRegister index = ZYDIS_REGISTER_NONE;
  uint8_t scale = 0;
  int64_t disp = 0;
  bool isAgen = false;
  /// An EVEX write mask ({k1}): the aaa field, listed by the decoder among the operands.
  bool isWriteMask = false;

  // Kind::Imm: the raw value, sign-extended when `immSigned`; a relative branch target has
  // `immRelative` set and `imm` is the displacement from the next instruction.
  uint64_t imm = 0;
  bool immSigned = false;
  bool immRelative = false;

  bool isReg() const { return kind == Kind::Reg; }
  bool isMem() const { return kind == Kind::Mem; }
  bool isImm() const { return kind == Kind::Imm; }
};

/// What an EVEX prefix adds to an instruction (SDM vol. 2, 2.7).
struct EvexInfo {
  uint16_t vectorBits = 0;   ///< 128, 256 or 512 (the VEX vector length for VEX forms)
  /// The write mask: ZYDIS_REGISTER_NONE when disabled (aaa = 0), k1..k7 otherwise.
  ZydisRegister mask = ZYDIS_REGISTER_NONE;
  bool zeroing = false;            ///< {z}: masked-off elements become zero, not kept
  /// Embedded broadcast ({1toN}): the memory operand is one element repeated N times; 0 for
  /// none (and for instructions that broadcast by definition, vpbroadcastd).
  uint8_t broadcastCount = 0;
  bool embeddedRounding = false;   ///< {rn-sae} ... or {sae}: static rounding or no exceptions
  /// With embeddedRounding: the static rounding ({rn-sae} RN ... {rz-sae} RZ), or
  /// ZYDIS_ROUNDING_MODE_INVALID for {sae} alone.
  ZydisRoundingMode staticRounding = ZYDIS_ROUNDING_MODE_INVALID;
};

struct Instr {
  static constexpr unsigned MaxOperands = 8;

  uint64_t address = 0;
  uint8_t length = 0;
  std::array<uint8_t, 15> bytes{};
  ZydisMnemonic mnemonic = ZYDIS_MNEMONIC_INVALID;
  ZydisInstructionCategory category = ZYDIS_CATEGORY_INVALID;
  ZydisISASet isaSet = ZYDIS_ISA_SET_INVALID;
  ZydisISAExt isaExt = ZYDIS_ISA_EXT_INVALID;
  /// Legacy, 3DNow!, XOP, VEX, EVEX or MVEX: VEX and EVEX writes to an XMM register zero the
  /// rest of the vector register, legacy SSE writes keep it.
  ZydisInstructionEncoding encoding = ZYDIS_INSTRUCTION_ENCODING_LEGACY;
  uint8_t operandWidth = 0;   ///< effective operand size in bits
  uint8_t addressWidth = 0;   ///< effective address size in bits
  uint64_t attributes = 0;    ///< ZYDIS_ATTRIB_* (prefixes among them)

  EvexInfo evex;

  uint8_t operandCount = 0;   ///< all operands, explicit ones first
  uint8_t explicitCount = 0;
  std::array<Operand, MaxOperands> operands{};

  // Flags as the manual describes them for this instruction (RFLAGS masks, see FlagMask).
  uint32_t flagsTested = 0;
  uint32_t flagsModified = 0;
  uint32_t flagsSet0 = 0;
  uint32_t flagsSet1 = 0;
  uint32_t flagsUndefined = 0;
  // The x87 condition codes as Zydis reports them: bits ZYDIS_FPUFLAG_C0..C3 (1, 2, 4, 8).
  uint8_t fpuFlagsModified = 0;
  uint8_t fpuFlagsUndefined = 0;

  uint64_t next() const { return address + length; }
  const Operand &op(unsigned i) const { return operands[i]; }
  bool hasLock() const { return attributes & ZYDIS_ATTRIB_HAS_LOCK; }
  bool hasRep() const { return attributes & ZYDIS_ATTRIB_HAS_REP; }
  bool hasRepe() const { return attributes & ZYDIS_ATTRIB_HAS_REPE; }
  bool hasRepne() const { return attributes & ZYDIS_ATTRIB_HAS_REPNE; }
  bool hasRepeatPrefix() const { return hasRep() || hasRepe() || hasRepne(); }
  /// AVX-512 and Knights Corner: EVEX and MVEX forms, and the VEX-encoded mask-register
  /// instructions (kmovq, kortestw, ...) that come with them.
  bool isAvx512() const {
    return encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX ||
           encoding == ZYDIS_INSTRUCTION_ENCODING_MVEX || isaExt == ZYDIS_ISA_EXT_AVX512EVEX ||
           isaExt == ZYDIS_ISA_EXT_AVX512VEX || isaExt == ZYDIS_ISA_EXT_KNC ||
           isaExt == ZYDIS_ISA_EXT_KNCE || isaExt == ZYDIS_ISA_EXT_KNCV;
  }
  bool isVexOrEvex() const {
    return encoding == ZYDIS_INSTRUCTION_ENCODING_VEX || encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX;
  }

  /// Intel-syntax text, e.g. "add rax, qword ptr [rbx+0x8]".
  std::string text() const;
  /// "0x401a2c: add rax, rbx": the prefix of every message about this instruction.
  std::string describe() const;
  const char *mnemonicName() const;
  /// A general-purpose instruction: the base set and its integer extensions (BMI, ADX, LZCNT,
  /// MOVBE, RDRAND, ...), not SIMD, x87 or MMX.
  bool isGeneralPurpose() const;
};

const char *mnemonicName(ZydisMnemonic mnemonic);
const char *registerName(ZydisRegister reg);

} // namespace hoist
