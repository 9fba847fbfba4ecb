// Operand-dependent undefined results of rotates and double shifts (rol ror rcl rcr shld shrd).
#include "UndefinedFlags.h"

#include "StateGenerator.h"

namespace hoist::test {

namespace {

uint64_t maskedCount(const Instr &instr, unsigned index, const CpuState &in) {
  return operandValue(instr.op(index), in) & (instr.op(0).bits == 64 ? 63 : 31);
}

} // namespace

/// SDM vol. 2, RCL/RCR/ROL/ROR: a masked count of 0 changes no flag; OF is undefined unless
/// the masked count is 1 (the masked count, not rcl/rcr's count mod 9 or 17); CF is defined.
/// SHLD/SHRD: a count of 0 changes nothing. A count above the operand size (16-bit operands
/// only) leaves the destination and CF OF SF ZF AF PF undefined: of a register destination
/// its low 16 bits, since a 16-bit write keeps bits 16..63. Otherwise AF is undefined, and OF
/// unless the count is 1. Zydis' static sets cannot say this, so they are replaced.
bool rotateUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_ROL:
  case ZYDIS_MNEMONIC_ROR:
  case ZYDIS_MNEMONIC_RCL:
  case ZYDIS_MNEMONIC_RCR:
    out.flags = maskedCount(instr, 1, in) > 1 ? uint32_t(FlagOF) : 0u;
    return true;
  case ZYDIS_MNEMONIC_SHLD:
  case ZYDIS_MNEMONIC_SHRD: {
    uint64_t count = maskedCount(instr, 2, in);
    const Operand &dest = instr.op(0);
    if (count == 0) {
      out.flags = 0;
    } else if (count > dest.bits) {
      out.flags = FlagCF | FlagOF | FlagSF | FlagZF | FlagAF | FlagPF;
      if (int index = dest.isReg() ? gprIndex(dest.reg) : -1; index >= 0)
        out.registerBits[index] |= (uint64_t(1) << dest.bits) - 1;   // dest.bits is 16
    } else {
      out.flags = FlagAF | (count > 1 ? uint32_t(FlagOF) : 0u);
    }
    return true;
  }
  default:
    return false;
  }
}

} // namespace hoist::test
