#include "Semantics/Semantics.h"
#include "Semantics/DirectedRounding.h"

namespace hoist {

static SemanticTable buildTable() {
  SemanticTable table;
  registerBinary(table);
  registerLogical(table);
  registerShift(table);
  registerDataXfer(table);
  registerStack(table);
  registerBranch(table);
  registerConditional(table);
  registerConvert(table);
  registerNop(table);
  registerSystem(table);
  registerBitByte(table);
  registerBmi(table);
  registerRotate(table);
  registerMulDiv(table);
  registerFlagOp(table);
  registerSemaphore(table);
  registerString(table);
  registerSimdMove(table);
  registerSimdShuffle(table);
  registerSimdInteger(table);
  registerSimdFloat(table);
  registerSimdConvert(table);
  registerSimdString(table);
  registerSimdCrypto(table);
  registerX87(table);
  registerFpEnvironment(table);
  registerXsave(table);
  registerGfni(table);
  return table;
}

static SemanticTable buildAvx512Table() {
  SemanticTable table;
  registerAvx512Mask(table);
  registerAvx512Move(table);
  registerAvx512Integer(table);
  registerAvx512Shift(table);
  registerAvx512Float(table);
  registerAvx512Shuffle(table);
  registerAvx512ByteShift(table);
  registerAvx512Convert(table);
  registerAvx512SimdMove(table);
  registerAvx512Gather(table);
  registerAvx512Compress(table);
  registerAvx512FloatFields(table);
  registerAvx512Gfni(table);
  return table;
}

/// Whether the EVEX form's embedded rounding leaves its semantic exact: none, {sae} alone, or
/// {rn-sae}, which compute what the default environment computes (the exception flags SAE
/// leaves unchanged are not modelled), whatever MXCSR.RC holds; {rd-sae}, {ru-sae} and
/// {rz-sae} for the semantics that compute every static rounding (DirectedRounding.h). The
/// others have no semantics (refused, rather than lifted in nearest).
static bool roundsAsModelled(const Instr &instr) {
  return fp::staticRounding(instr) == fp::RoundingMode::Nearest ||
         fp::honoursStaticRounding(instr.mnemonic);
}

/// The semantic of an AVX-512 instruction (Instr::isAvx512). Knights Corner's MVEX forms have
/// none.
static Semantic findAvx512Semantic(const Instr &instr) {
  static const SemanticTable table = buildAvx512Table();
  if (instr.encoding == ZYDIS_INSTRUCTION_ENCODING_MVEX || !roundsAsModelled(instr))
    return nullptr;
  if (instr.isaExt == ZYDIS_ISA_EXT_KNC || instr.isaExt == ZYDIS_ISA_EXT_KNCE ||
      instr.isaExt == ZYDIS_ISA_EXT_KNCV)
    return nullptr;
  return table.find(instr);
}

ZydisRegister accumulatorRegister(unsigned bits) {
  switch (bits) {
  case 8:
    return ZYDIS_REGISTER_AL;
  case 16:
    return ZYDIS_REGISTER_AX;
  case 32:
    return ZYDIS_REGISTER_EAX;
  default:
    return ZYDIS_REGISTER_RAX;
  }
}

ZydisRegister counterRegister(const Instr &instr) {
  return instr.addressWidth == 32 ? ZYDIS_REGISTER_ECX : ZYDIS_REGISTER_RCX;
}

Semantic findSemantic(const Instr &instr) {
  static const SemanticTable table = buildTable();
  if (instr.mnemonic < 0 || instr.mnemonic > ZYDIS_MNEMONIC_MAX_VALUE)
    return nullptr;
  // AVX-512 and Knights Corner forms share mnemonics with AVX ones (vaddps): their own table.
  if (instr.isAvx512())
    return findAvx512Semantic(instr);
  // MMX registers alias the x87 significands and are not modelled; the SSE forms of the same
  // mnemonics (paddd xmm, movq xmm) are. Checked here so that stats and the lifter agree.
  for (unsigned i = 0; i < instr.operandCount; ++i)
    if (instr.op(i).isReg() && ZydisRegisterGetClass(instr.op(i).reg) == ZYDIS_REGCLASS_MMX)
      return nullptr;
  return table.find(instr);
}

} // namespace hoist
