// Operand-dependent undefined results of bit and byte instructions (bt*, bsf/bsr, lzcnt/tzcnt/popcnt, BMI).
#include "UndefinedFlags.h"

#include "HostModel.h"
#include "StateGenerator.h"

namespace hoist::test {

namespace {

/// BSF/BSR with a zero source: AMD's manual (APM vol. 3) says the destination does not change,
/// and AMD's CPUs keep all 64 bits of it, a 32-bit destination's upper half included. Intel's
/// SDM leaves the destination undefined; the lifter keeps its value but zero-extends a 32-bit
/// one, as Intel's parts do. So on an AMD host only bits 32..63 of a 32-bit destination are
/// left out (the vendors differ there) and 16- and 64-bit destinations are compared whole;
/// elsewhere the whole destination register is left out. The flags keep Zydis' static set:
/// ZF is defined, CF OF SF AF PF are undefined for every source.
void bitScanUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  const Operand &source = instr.op(1);
  unsigned bits = instr.op(0).bits;
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  // A memory source is not visible here. The lifter keeps the destination for a zero source
  // as AMD does, so a zero in random memory still compares equal on these machines.
  if (source.isReg() && (operandValue(source, in) & mask) == 0)
    if (int index = gprIndex(instr.op(0).reg); index >= 0)
      out.registerBits[index] = !hostIsAmd() ? ~uint64_t(0)
                                : bits == 32   ? 0xffffffff00000000u
                                               : 0;
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
