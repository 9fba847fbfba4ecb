#include "Decode/Decoder.h"

#include <algorithm>
#include <cstring>

namespace hoist {

const char *decodeStatusMessage(DecodeStatus status) {
  switch (status) {
  case DecodeStatus::Ok:
    return "ok";
  case DecodeStatus::NoMoreData:
    return "instruction runs past the end of the readable bytes";
  case DecodeStatus::Invalid:
    return "invalid instruction bytes";
  }
  return "unknown decode status";
}

Decoder::Decoder() {
  ZydisDecoderInit(&decoder_, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
}

/// Fills `out` from Zydis's operand in place (`out` is default-initialized): the lifter
/// decodes every instruction it lifts again, so this runs once per instruction lifted.
static void convertOperand(const ZydisDecodedOperand &in, Operand &out) {
  out.explicitOperand = in.visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT;
  out.read = in.actions & ZYDIS_OPERAND_ACTION_MASK_READ;
  out.written = in.actions & ZYDIS_OPERAND_ACTION_MASK_WRITE;
  out.bits = in.size;
  switch (in.type) {
  case ZYDIS_OPERAND_TYPE_REGISTER:
    out.kind = Operand::Kind::Reg;
    out.reg = in.reg.value;
    out.isWriteMask = in.encoding == ZYDIS_OPERAND_ENCODING_MASK;
    break;
  case ZYDIS_OPERAND_TYPE_MEMORY:
    out.kind = Operand::Kind::Mem;
    out.segment = in.mem.segment;
    out.base = in.mem.base;
    out.index = in.mem.index;
    out.scale = in.mem.scale;
    out.disp = in.mem.disp.has_displacement ? in.mem.disp.value : 0;
    out.isAgen = in.mem.type == ZYDIS_MEMOP_TYPE_AGEN;
    break;
  case ZYDIS_OPERAND_TYPE_IMMEDIATE:
    out.kind = Operand::Kind::Imm;
    out.immSigned = in.imm.is_signed;
    out.immRelative = in.imm.is_relative;
    out.imm = in.imm.is_signed ? static_cast<uint64_t>(in.imm.value.s) : in.imm.value.u;
    break;
  case ZYDIS_OPERAND_TYPE_POINTER:
    out.kind = Operand::Kind::Ptr;
    out.imm = in.ptr.offset;
    break;
  default:
    out.kind = Operand::Kind::None;
    break;
  }
}

/// The element count of an embedded broadcast ({1to16}: 16).
static uint8_t broadcastCount(ZydisBroadcastMode mode) {
  switch (mode) {
  case ZYDIS_BROADCAST_MODE_1_TO_2: return 2;
  case ZYDIS_BROADCAST_MODE_1_TO_4: return 4;
  case ZYDIS_BROADCAST_MODE_1_TO_8: return 8;
  case ZYDIS_BROADCAST_MODE_1_TO_16: return 16;
  case ZYDIS_BROADCAST_MODE_1_TO_32: return 32;
  case ZYDIS_BROADCAST_MODE_1_TO_64: return 64;
  default: return 0;   // none, or the KNC n-to-m forms, which Hoist does not lift
  }
}

static EvexInfo evexInfo(const ZydisDecodedInstruction &raw) {
  EvexInfo info;
  info.vectorBits = raw.avx.vector_length;
  bool masked = raw.avx.mask.mode != ZYDIS_MASK_MODE_DISABLED &&
                raw.avx.mask.mode != ZYDIS_MASK_MODE_INVALID && raw.avx.mask.reg != ZYDIS_REGISTER_K0;
  info.mask = masked ? raw.avx.mask.reg : ZYDIS_REGISTER_NONE;
  info.zeroing = masked && (raw.avx.mask.mode == ZYDIS_MASK_MODE_ZEROING ||
                            raw.avx.mask.mode == ZYDIS_MASK_MODE_CONTROL_ZEROING);
  if (!raw.avx.broadcast.is_static)
    info.broadcastCount = broadcastCount(raw.avx.broadcast.mode);
  info.embeddedRounding =
      raw.avx.has_sae || raw.avx.rounding.mode != ZYDIS_ROUNDING_MODE_INVALID;
  info.staticRounding = raw.avx.rounding.mode;
  return info;
}

DecodeStatus Decoder::decode(const uint8_t *bytes, size_t size, uint64_t address,
                             Instr &out) const {
  return decode(bytes, size, address, out, /*reset=*/true);
}

DecodeStatus Decoder::decodeIntoFresh(const uint8_t *bytes, size_t size, uint64_t address,
                                      Instr &out) const {
  return decode(bytes, size, address, out, /*reset=*/false);
}

DecodeStatus Decoder::decode(const uint8_t *bytes, size_t size, uint64_t address, Instr &out,
                             bool reset) const {
  ZydisDecodedInstruction raw;
  ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
  ZyanStatus status = ZydisDecoderDecodeFull(&decoder_, bytes, size, &raw, ops);
  if (!ZYAN_SUCCESS(status))
    return status == ZYDIS_STATUS_NO_MORE_DATA ? DecodeStatus::NoMoreData : DecodeStatus::Invalid;

  if (reset)
    out = Instr{};
  out.address = address;
  out.length = raw.length;
  std::memcpy(out.bytes.data(), bytes, raw.length);
  out.mnemonic = raw.mnemonic;
  out.category = raw.meta.category;
  out.isaSet = raw.meta.isa_set;
  out.isaExt = raw.meta.isa_ext;
  out.encoding = raw.encoding;
  out.operandWidth = raw.operand_width;
  out.addressWidth = raw.address_width;
  out.attributes = raw.attributes;
  out.operandCount = std::min<uint8_t>(raw.operand_count, Instr::MaxOperands);
  out.explicitCount = std::min<uint8_t>(raw.operand_count_visible, Instr::MaxOperands);
  for (unsigned i = 0; i < out.operandCount; ++i)
    convertOperand(ops[i], out.operands[i]);
  if (raw.encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX || raw.encoding == ZYDIS_INSTRUCTION_ENCODING_VEX)
    out.evex = evexInfo(raw);
  if (raw.cpu_flags) {
    out.flagsTested = raw.cpu_flags->tested;
    out.flagsModified = raw.cpu_flags->modified;
    out.flagsSet0 = raw.cpu_flags->set_0;
    out.flagsSet1 = raw.cpu_flags->set_1;
    out.flagsUndefined = raw.cpu_flags->undefined;
  }
  if (raw.fpu_flags) {
    out.fpuFlagsModified = static_cast<uint8_t>(raw.fpu_flags->modified);
    out.fpuFlagsUndefined = static_cast<uint8_t>(raw.fpu_flags->undefined);
  }
  return DecodeStatus::Ok;
}

} // namespace hoist
