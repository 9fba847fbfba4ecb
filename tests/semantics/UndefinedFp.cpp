// Which MXCSR and x87 status-word bits the comparison leaves out.
//
// Hoist does not model the floating-point exception flags (MXCSR bits 0..5, the x87 status
// word's IE..PE, SF and ES, and C1 as the "rounded up" indicator): see docs/DESIGN.md. They
// are left out only for the instructions that compute and so may raise them; the ones that
// load, clear or save them (ldmxcsr, fxrstor, fninit, fnclex, ...) are compared exactly.
// The x87 condition codes the manual leaves undefined (Zydis' set) are left out as well.
#include "UndefinedFlags.h"

namespace hoist::test {
namespace {

constexpr uint32_t MxcsrExceptionFlags = 0x3f;
constexpr uint16_t FswExceptionFlags = 0x00ff;   // IE DE ZE OE UE PE SF ES
constexpr uint16_t FswC0 = 1u << 8, FswC1 = 1u << 9, FswC2 = 1u << 10, FswC3 = 1u << 14;

bool managesFpEnvironment(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
  case ZYDIS_MNEMONIC_LDMXCSR:
  case ZYDIS_MNEMONIC_VLDMXCSR:
  case ZYDIS_MNEMONIC_STMXCSR:
  case ZYDIS_MNEMONIC_VSTMXCSR:
  case ZYDIS_MNEMONIC_FXRSTOR:
  case ZYDIS_MNEMONIC_FXRSTOR64:
  case ZYDIS_MNEMONIC_FXSAVE:
  case ZYDIS_MNEMONIC_FXSAVE64:
  case ZYDIS_MNEMONIC_XRSTOR:
  case ZYDIS_MNEMONIC_XRSTOR64:
  case ZYDIS_MNEMONIC_XSAVE:
  case ZYDIS_MNEMONIC_XSAVE64:
  case ZYDIS_MNEMONIC_XSAVEOPT:
  case ZYDIS_MNEMONIC_XSAVEOPT64:
  case ZYDIS_MNEMONIC_XSAVEC:
  case ZYDIS_MNEMONIC_XSAVEC64:
  case ZYDIS_MNEMONIC_FNINIT:
  case ZYDIS_MNEMONIC_FNCLEX:
  case ZYDIS_MNEMONIC_FLDENV:
  case ZYDIS_MNEMONIC_FRSTOR:
  case ZYDIS_MNEMONIC_FNSTENV:
  case ZYDIS_MNEMONIC_FNSAVE:
  case ZYDIS_MNEMONIC_FNSTSW:
  case ZYDIS_MNEMONIC_FNSTCW:
  case ZYDIS_MNEMONIC_FLDCW:
    return true;
  default:
    return false;
  }
}

uint16_t fswBits(uint8_t zydisFpuFlags) {
  uint16_t bits = 0;
  if (zydisFpuFlags & ZYDIS_FPUFLAG_C0)
    bits |= FswC0;
  if (zydisFpuFlags & ZYDIS_FPUFLAG_C1)
    bits |= FswC1;
  if (zydisFpuFlags & ZYDIS_FPUFLAG_C2)
    bits |= FswC2;
  if (zydisFpuFlags & ZYDIS_FPUFLAG_C3)
    bits |= FswC3;
  return bits;
}

} // namespace

void fpUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  (void)in;
  out.fsw |= fswBits(instr.fpuFlagsUndefined);
  if (managesFpEnvironment(instr.mnemonic))
    return;
  out.mxcsr |= MxcsrExceptionFlags;
  out.fsw |= FswExceptionFlags;
  if (instr.isaExt == ZYDIS_ISA_EXT_X87 && (instr.fpuFlagsModified & ZYDIS_FPUFLAG_C1))
    out.fsw |= FswC1;
  x87Undefined(instr, in, out);
}

} // namespace hoist::test
