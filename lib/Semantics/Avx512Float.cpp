// AVX-512 floating point (EVEX forms of Zydis categories AVX512 and AVX of the FP mnemonics):
// add, sub, mul, div, min, max and sqrt, packed and scalar, and the packed compares into an
// opmask (vcmpps/pd, 32 predicates). The values follow the SSE/AVX rules of FloatRules.h (NaN
// propagation, default NaN, min/max returning the second source); the exception flags are not
// modelled, as for SSE and AVX (DESIGN.md). Embedded rounding ({rn-sae} ... {rz-sae}) rounds
// as it says (DirectedRounding.h); {sae} changes no value. FMA is in SimdFma.cpp; masking,
// zeroing, broadcasts and fault suppression come from Avx512Operands.
#include "Semantics/Avx512Operands.h"
#include "Semantics/DirectedRounding.h"
#include "Semantics/FloatRules.h"
#include "Semantics/SimdHelpers.h"

namespace hoist {
namespace {

using namespace avx512;
using fp::Arith;

llvm::Type *floatElement(LiftContext &ctx, bool isDouble) {
  return isDouble ? ctx.ir.getDoubleTy() : ctx.ir.getFloatTy();
}

/// vaddps ... vsqrtpd zmm1 {k1}{z}, zmm2, zmm3/m512/bcst (SDM vol. 2, ADDPS ... SQRTPD).
template <Arith Op, bool IsDouble>
LiftStatus liftArithmetic(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = floatElement(ctx, IsDouble);
  fp::RoundingMode mode = fp::staticRounding(instr);
  if (Op == Arith::Sqrt)
    return liftOneSource(ctx, element, [&](llvm::Value *x) {
      return fp::roundedArithmetic(ctx, Arith::Sqrt, x, x, mode);
    });
  return liftTwoSources(ctx, element, [&](llvm::Value *a, llvm::Value *b) {
    return fp::roundedArithmetic(ctx, Op, a, b, mode);
  });
}

/// vaddss ... vsqrtsd xmm1 {k1}{z}, xmm2, xmm3/m32: element 0 is op(src1[0], src2[0]) where
/// k1 enables it, else the destination's (or zero with {z}); elements 1.. of the xmm come
/// from src1 and the rest of the register is zeroed (SDM vol. 2, ADDSS, SQRTSS).
template <Arith Op, bool IsDouble>
LiftStatus liftScalarArithmetic(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = floatElement(ctx, IsDouble);
  llvm::Value *first = ctx.readVectorReg(instr.op(dataOperand(instr, 1)).reg, element);
  llvm::Value *b = readScalarSource(ctx, dataOperand(instr, 2), element);
  llvm::Value *a = ctx.ir.CreateExtractElement(first, uint64_t(0));
  llvm::Value *low =
      fp::roundedArithmetic(ctx, Op, Op == Arith::Sqrt ? b : a, b, fp::staticRounding(instr));
  writeScalarResult(ctx, first, low);
  return LiftStatus::Lifted;
}

/// vcmpps/pd k1 {k2}, zmm2, zmm3/m512/bcst, imm8: the predicate of imm8[4:0] per element
/// (SDM vol. 2, CMPPS, table 3-1), cleared where k2 disables the element.
template <bool IsDouble> LiftStatus liftCompare(LiftContext &ctx, const Instr &instr) {
  llvm::CmpInst::Predicate predicate =
      fp::comparePredicate(simd::immediate(instr, dataOperand(instr, 3)) & 31);
  return liftTwoSourcesToMask(ctx, floatElement(ctx, IsDouble),
                              [&](llvm::Value *a, llvm::Value *b) {
                                return ctx.ir.CreateFCmp(predicate, a, b);
                              });
}

} // namespace

void registerAvx512Float(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VADDPS, liftArithmetic<Arith::Add, false>);
  table.add(ZYDIS_MNEMONIC_VADDPD, liftArithmetic<Arith::Add, true>);
  table.add(ZYDIS_MNEMONIC_VSUBPS, liftArithmetic<Arith::Sub, false>);
  table.add(ZYDIS_MNEMONIC_VSUBPD, liftArithmetic<Arith::Sub, true>);
  table.add(ZYDIS_MNEMONIC_VMULPS, liftArithmetic<Arith::Mul, false>);
  table.add(ZYDIS_MNEMONIC_VMULPD, liftArithmetic<Arith::Mul, true>);
  table.add(ZYDIS_MNEMONIC_VDIVPS, liftArithmetic<Arith::Div, false>);
  table.add(ZYDIS_MNEMONIC_VDIVPD, liftArithmetic<Arith::Div, true>);
  table.add(ZYDIS_MNEMONIC_VMINPS, liftArithmetic<Arith::Min, false>);
  table.add(ZYDIS_MNEMONIC_VMINPD, liftArithmetic<Arith::Min, true>);
  table.add(ZYDIS_MNEMONIC_VMAXPS, liftArithmetic<Arith::Max, false>);
  table.add(ZYDIS_MNEMONIC_VMAXPD, liftArithmetic<Arith::Max, true>);
  table.add(ZYDIS_MNEMONIC_VSQRTPS, liftArithmetic<Arith::Sqrt, false>);
  table.add(ZYDIS_MNEMONIC_VSQRTPD, liftArithmetic<Arith::Sqrt, true>);
  table.add(ZYDIS_MNEMONIC_VADDSS, liftScalarArithmetic<Arith::Add, false>);
  table.add(ZYDIS_MNEMONIC_VADDSD, liftScalarArithmetic<Arith::Add, true>);
  table.add(ZYDIS_MNEMONIC_VSUBSS, liftScalarArithmetic<Arith::Sub, false>);
  table.add(ZYDIS_MNEMONIC_VSUBSD, liftScalarArithmetic<Arith::Sub, true>);
  table.add(ZYDIS_MNEMONIC_VMULSS, liftScalarArithmetic<Arith::Mul, false>);
  table.add(ZYDIS_MNEMONIC_VMULSD, liftScalarArithmetic<Arith::Mul, true>);
  table.add(ZYDIS_MNEMONIC_VDIVSS, liftScalarArithmetic<Arith::Div, false>);
  table.add(ZYDIS_MNEMONIC_VDIVSD, liftScalarArithmetic<Arith::Div, true>);
  table.add(ZYDIS_MNEMONIC_VMINSS, liftScalarArithmetic<Arith::Min, false>);
  table.add(ZYDIS_MNEMONIC_VMINSD, liftScalarArithmetic<Arith::Min, true>);
  table.add(ZYDIS_MNEMONIC_VMAXSS, liftScalarArithmetic<Arith::Max, false>);
  table.add(ZYDIS_MNEMONIC_VMAXSD, liftScalarArithmetic<Arith::Max, true>);
  table.add(ZYDIS_MNEMONIC_VSQRTSS, liftScalarArithmetic<Arith::Sqrt, false>);
  table.add(ZYDIS_MNEMONIC_VSQRTSD, liftScalarArithmetic<Arith::Sqrt, true>);
  table.add(ZYDIS_MNEMONIC_VCMPPS, liftCompare<false>);
  table.add(ZYDIS_MNEMONIC_VCMPPD, liftCompare<true>);
  registerAvx512Fma(table);
}

} // namespace hoist
