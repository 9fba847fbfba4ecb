// Per-instruction refinements of the x87 status-word mask (see UndefinedFp.cpp).
//
// fpUndefined leaves C1 out for every x87 instruction that modifies it, because for the
// computing ones C1 reports "rounded up", which Hoist does not model. Where C1 means
// something else, or nothing can round, it is compared again: the stack fault indicator of
// loads, exchanges, sign operations and TOP changes (SDM vol. 1, 8.1.3.1), the 0 of the
// compares, the sign of fxam and the quotient bit Q0 of fprem/fprem1.
#include "UndefinedFlags.h"

namespace hoist::test {
namespace {

constexpr uint16_t FswC1 = 1u << 9;

/// C1 is exact for these: it never reports rounding.
bool definesC1(const Instr &instr) {
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_FLD:
  case ZYDIS_MNEMONIC_FILD:
  case ZYDIS_MNEMONIC_FLDZ:
  case ZYDIS_MNEMONIC_FLD1:
  case ZYDIS_MNEMONIC_FLDPI:
  case ZYDIS_MNEMONIC_FLDL2E:
  case ZYDIS_MNEMONIC_FLDL2T:
  case ZYDIS_MNEMONIC_FLDLG2:
  case ZYDIS_MNEMONIC_FLDLN2:
  case ZYDIS_MNEMONIC_FXCH:
  case ZYDIS_MNEMONIC_FCHS:
  case ZYDIS_MNEMONIC_FABS:
  case ZYDIS_MNEMONIC_FINCSTP:
  case ZYDIS_MNEMONIC_FDECSTP:
  case ZYDIS_MNEMONIC_FCOM:
  case ZYDIS_MNEMONIC_FCOMP:
  case ZYDIS_MNEMONIC_FCOMPP:
  case ZYDIS_MNEMONIC_FUCOM:
  case ZYDIS_MNEMONIC_FUCOMP:
  case ZYDIS_MNEMONIC_FUCOMPP:
  case ZYDIS_MNEMONIC_FICOM:
  case ZYDIS_MNEMONIC_FICOMP:
  case ZYDIS_MNEMONIC_FCOMI:
  case ZYDIS_MNEMONIC_FCOMIP:
  case ZYDIS_MNEMONIC_FUCOMI:
  case ZYDIS_MNEMONIC_FUCOMIP:
  case ZYDIS_MNEMONIC_FTST:
  case ZYDIS_MNEMONIC_FXAM:
  case ZYDIS_MNEMONIC_FPREM:
  case ZYDIS_MNEMONIC_FPREM1:
  case ZYDIS_MNEMONIC_FCMOVB:
  case ZYDIS_MNEMONIC_FCMOVE:
  case ZYDIS_MNEMONIC_FCMOVBE:
  case ZYDIS_MNEMONIC_FCMOVU:
  case ZYDIS_MNEMONIC_FCMOVNB:
  case ZYDIS_MNEMONIC_FCMOVNE:
  case ZYDIS_MNEMONIC_FCMOVNBE:
  case ZYDIS_MNEMONIC_FCMOVNU:
  case ZYDIS_MNEMONIC_FISTTP:
  case ZYDIS_MNEMONIC_FXTRACT:
    return true;
  case ZYDIS_MNEMONIC_FST:
  case ZYDIS_MNEMONIC_FSTP:
  case ZYDIS_MNEMONIC_FSTPNCE:
    // A copy to st(i) or m80 cannot round; m32 and m64 can.
    return instr.op(0).isReg() || instr.op(0).bits == 80;
  default:
    return false;
  }
}

} // namespace

void x87Undefined(const Instr &instr, const CpuState &in, Undefined &out) {
  (void)in;
  if (definesC1(instr) && !(instr.fpuFlagsUndefined & ZYDIS_FPUFLAG_C1))
    out.fsw &= static_cast<uint16_t>(~FswC1);
}

} // namespace hoist::test
