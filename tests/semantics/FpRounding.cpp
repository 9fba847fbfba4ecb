// The forms whose states vary the rounding control (see roundingControlVaries): the
// instructions whose result Hoist computes for every MXCSR.RC or x87 RC.
#include "StateGenerator.h"

namespace hoist::test {

bool roundingControlVaries(const Instr &instr) {
  // EVEX forms with a static rounding ({rn-sae} ... {rz-sae}): MXCSR.RC must change nothing.
  if (instr.evex.embeddedRounding && instr.evex.staticRounding != ZYDIS_ROUNDING_MODE_INVALID)
    return true;
  switch (instr.mnemonic) {
  // SSE conversions to integer (the cvtt* forms truncate whatever RC says; varying RC checks
  // that they do).
  case ZYDIS_MNEMONIC_CVTSS2SI:
  case ZYDIS_MNEMONIC_CVTSD2SI:
  case ZYDIS_MNEMONIC_CVTTSS2SI:
  case ZYDIS_MNEMONIC_CVTTSD2SI:
  case ZYDIS_MNEMONIC_CVTPS2DQ:
  case ZYDIS_MNEMONIC_CVTPD2DQ:
  case ZYDIS_MNEMONIC_CVTTPS2DQ:
  case ZYDIS_MNEMONIC_CVTTPD2DQ:
  case ZYDIS_MNEMONIC_VCVTSS2SI:
  case ZYDIS_MNEMONIC_VCVTSD2SI:
  case ZYDIS_MNEMONIC_VCVTTSS2SI:
  case ZYDIS_MNEMONIC_VCVTTSD2SI:
  case ZYDIS_MNEMONIC_VCVTPS2DQ:
  case ZYDIS_MNEMONIC_VCVTPD2DQ:
  case ZYDIS_MNEMONIC_VCVTTPS2DQ:
  case ZYDIS_MNEMONIC_VCVTTPD2DQ:
  case ZYDIS_MNEMONIC_VCVTPS2QQ:
  case ZYDIS_MNEMONIC_VCVTPD2QQ:
  case ZYDIS_MNEMONIC_VCVTTPS2QQ:
  case ZYDIS_MNEMONIC_VCVTTPD2QQ:
  // AVX-512 conversions to unsigned integers.
  case ZYDIS_MNEMONIC_VCVTSS2USI:
  case ZYDIS_MNEMONIC_VCVTSD2USI:
  case ZYDIS_MNEMONIC_VCVTTSS2USI:
  case ZYDIS_MNEMONIC_VCVTTSD2USI:
  case ZYDIS_MNEMONIC_VCVTPS2UDQ:
  case ZYDIS_MNEMONIC_VCVTPD2UDQ:
  case ZYDIS_MNEMONIC_VCVTTPS2UDQ:
  case ZYDIS_MNEMONIC_VCVTTPD2UDQ:
  case ZYDIS_MNEMONIC_VCVTPS2UQQ:
  case ZYDIS_MNEMONIC_VCVTPD2UQQ:
  case ZYDIS_MNEMONIC_VCVTTPS2UQQ:
  case ZYDIS_MNEMONIC_VCVTTPD2UQQ:
  // F16C float to half (imm8 bit 2 selects MXCSR.RC).
  case ZYDIS_MNEMONIC_VCVTPS2PH:
  // SSE4.1 rounding (imm8 bit 2 selects MXCSR.RC).
  case ZYDIS_MNEMONIC_ROUNDSS:
  case ZYDIS_MNEMONIC_ROUNDSD:
  case ZYDIS_MNEMONIC_ROUNDPS:
  case ZYDIS_MNEMONIC_ROUNDPD:
  case ZYDIS_MNEMONIC_VROUNDSS:
  case ZYDIS_MNEMONIC_VROUNDSD:
  case ZYDIS_MNEMONIC_VROUNDPS:
  case ZYDIS_MNEMONIC_VROUNDPD:
  // AVX-512 rounding at a scale and its remainder (imm8 bit 2 selects MXCSR.RC).
  case ZYDIS_MNEMONIC_VREDUCESS:
  case ZYDIS_MNEMONIC_VREDUCESD:
  case ZYDIS_MNEMONIC_VREDUCEPS:
  case ZYDIS_MNEMONIC_VREDUCEPD:
  case ZYDIS_MNEMONIC_VRNDSCALESS:
  case ZYDIS_MNEMONIC_VRNDSCALESD:
  case ZYDIS_MNEMONIC_VRNDSCALEPS:
  case ZYDIS_MNEMONIC_VRNDSCALEPD:
  // x87 stores to integer and rounding to integer (fisttp truncates regardless).
  case ZYDIS_MNEMONIC_FIST:
  case ZYDIS_MNEMONIC_FISTP:
  case ZYDIS_MNEMONIC_FISTTP:
  case ZYDIS_MNEMONIC_FRNDINT:
    return true;
  default:
    return false;
  }
}

} // namespace hoist::test
