#include "UndefinedFlags.h"

#include "Arch/Registers.h"

#include "StateGenerator.h"

namespace hoist::test {

uint64_t operandValue(const Operand &operand, const CpuState &in) {
  if (operand.isImm())
    return operand.imm;
  if (!operand.isReg())
    return 0;
  int index = gprIndex(operand.reg);
  if (index < 0)
    return 0;
  return in.gpr[index] >> gprSlice(operand.reg)->offset;   // ah..bh sit at bit 8
}

namespace {

/// SDM vol. 2B, SAL/SAR/SHL/SHR: the count is masked to 5 bits (6 with REX.W). A masked count
/// of 0 changes no flag at all. Otherwise AF is undefined, OF is undefined unless the count is
/// 1, and for SHL/SHR CF is undefined when the count is at least the operand width (reachable
/// for 8- and 16-bit operands only). Zydis' static set cannot say this, so it is replaced.
uint32_t shiftUndefinedFlags(const Instr &instr, const CpuState &in) {
  unsigned bits = instr.op(0).bits;
  uint64_t count = operandValue(instr.op(1), in) & (bits == 64 ? 63 : 31);
  if (count == 0)
    return 0;
  uint32_t undefined = FlagAF;
  if (count > 1)
    undefined |= FlagOF;
  if (count >= bits && instr.mnemonic != ZYDIS_MNEMONIC_SAR)
    undefined |= FlagCF;
  return undefined;
}

/// A repeated string instruction with 32-bit addresses and a count of 0 runs no iteration.
/// What happens to the upper halves of its pointer registers then differs between vendors:
/// Intel's CPUs zero-extend ESI and EDI anyway, AMD's leave RSI and RDI alone; neither
/// manual says. Lifted code leaves them, so the comparison leaves out bits 32..63 of RSI and
/// RDI; their low halves stay as they were on both.
bool emptyRepeatWithShortAddresses(const Instr &instr, const CpuState &in, Undefined &out) {
  if (instr.category != ZYDIS_CATEGORY_STRINGOP || !instr.hasRepeatPrefix() ||
      instr.addressWidth != 32 || (in.gpr[1] & 0xffffffff) != 0)
    return false;
  constexpr unsigned Rsi = 6, Rdi = 7;
  constexpr uint64_t UpperHalf = 0xffffffff00000000u;
  out.registerBits[Rsi] |= UpperHalf;
  out.registerBits[Rdi] |= UpperHalf;
  return true;
}

} // namespace

Undefined undefinedEffects(const Instr &instr, const CpuState &in) {
  Undefined out;
  out.flags = instr.flagsUndefined;   // e.g. SF ZF AF PF of imul, AF of and/or/xor/test
  shiftUndefined(instr, in, out) || bitByteUndefined(instr, in, out) ||
      rotateUndefined(instr, in, out) || arithmeticUndefined(instr, in, out) ||
      emptyRepeatWithShortAddresses(instr, in, out);
  fpUndefined(instr, in, out);
  return out;
}

uint32_t undefinedFlags(const Instr &instr, const CpuState &in) {
  return undefinedEffects(instr, in).flags;
}

bool shiftUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_SHL:
  case ZYDIS_MNEMONIC_SHR:
  case ZYDIS_MNEMONIC_SAR:
    out.flags = shiftUndefinedFlags(instr, in);
    return true;
  default:
    return false;
  }
}

} // namespace hoist::test
