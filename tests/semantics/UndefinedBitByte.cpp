// Operand-dependent undefined results of bit and byte instructions (bt*, bsf/bsr, lzcnt/tzcnt/popcnt, BMI).
#include "UndefinedFlags.h"

#include "StateGenerator.h"

namespace hoist::test {

namespace {

/// SDM vol. 2, BSF/BSR: with a zero source the content of the destination is undefined (AMD
/// keeps it; Intel documents nothing). The flags keep Zydis' static set: ZF is defined, CF OF
/// SF AF PF are undefined for every source.
void bitScanUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  const Operand &source = instr.op(1);
  unsigned bits = instr.op(0).bits;
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  // A memory source is not visible here. The lifter keeps the destination for a zero source
  // as AMD does, so a zero in random memory still compares equal on these machines.
  if (source.isReg() && (operandValue(source, in) & mask) == 0)
    if (int index = gprIndex(instr.op(0).reg); index >= 0)
      out.registers |= uint16_t(1u << index);
}

} // namespace

bool bitByteUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_BSF:
  case ZYDIS_MNEMONIC_BSR:
    bitScanUndefined(instr, in, out);
    return true;
  case ZYDIS_MNEMONIC_BEXTR:
    // SDM vol. 2, BEXTR: "ZF is updated based on the result. AF, SF, and PF are undefined.
    // All other flags are cleared." Zydis also lists CF and OF as undefined.
    out.flags = FlagAF | FlagSF | FlagPF;
    return true;
  default:
    return false;
  }
}

} // namespace hoist::test
