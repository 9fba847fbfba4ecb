// FMA3 (Zydis category VFMA): vfmadd, vfmsub, vfnmadd, vfnmsub, vfmaddsub and vfmsubadd in
// their 132, 213 and 231 operand orders, packed (xmm, ymm) and scalar; and the EVEX forms
// (xmm, ymm, zmm, with masks and broadcasts; scalar under bit 0 of the mask).
#include "Semantics/Avx512Operands.h"
#include "Semantics/DirectedRoundingParts.h"
#include "Semantics/FloatRules.h"
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

enum class FmaOp { MulAdd, MulSub, NegMulAdd, NegMulSub, MulAddSub, MulSubAdd };

constexpr FmaOp FmaOps[] = {FmaOp::MulAdd,    FmaOp::MulSub,    FmaOp::NegMulAdd,
                            FmaOp::NegMulSub, FmaOp::MulAddSub, FmaOp::MulSubAdd};
/// The digits of the mnemonic: which operands (1-based) are multiplied, and which is added.
constexpr unsigned Orders[3][3] = {{1, 3, 2}, {2, 1, 3}, {2, 3, 1}};
enum Shape { Ps, Pd, Ss, Sd };

/// [op][order][shape]; vfmaddsub and vfmsubadd have no scalar forms.
constexpr ZydisMnemonic FmaMnemonics[6][3][4] = {
    {{ZYDIS_MNEMONIC_VFMADD132PS, ZYDIS_MNEMONIC_VFMADD132PD, ZYDIS_MNEMONIC_VFMADD132SS,
      ZYDIS_MNEMONIC_VFMADD132SD},
     {ZYDIS_MNEMONIC_VFMADD213PS, ZYDIS_MNEMONIC_VFMADD213PD, ZYDIS_MNEMONIC_VFMADD213SS,
      ZYDIS_MNEMONIC_VFMADD213SD},
     {ZYDIS_MNEMONIC_VFMADD231PS, ZYDIS_MNEMONIC_VFMADD231PD, ZYDIS_MNEMONIC_VFMADD231SS,
      ZYDIS_MNEMONIC_VFMADD231SD}},
    {{ZYDIS_MNEMONIC_VFMSUB132PS, ZYDIS_MNEMONIC_VFMSUB132PD, ZYDIS_MNEMONIC_VFMSUB132SS,
      ZYDIS_MNEMONIC_VFMSUB132SD},
     {ZYDIS_MNEMONIC_VFMSUB213PS, ZYDIS_MNEMONIC_VFMSUB213PD, ZYDIS_MNEMONIC_VFMSUB213SS,
      ZYDIS_MNEMONIC_VFMSUB213SD},
     {ZYDIS_MNEMONIC_VFMSUB231PS, ZYDIS_MNEMONIC_VFMSUB231PD, ZYDIS_MNEMONIC_VFMSUB231SS,
      ZYDIS_MNEMONIC_VFMSUB231SD}},
    {{ZYDIS_MNEMONIC_VFNMADD132PS, ZYDIS_MNEMONIC_VFNMADD132PD, ZYDIS_MNEMONIC_VFNMADD132SS,
      ZYDIS_MNEMONIC_VFNMADD132SD},
     {ZYDIS_MNEMONIC_VFNMADD213PS, ZYDIS_MNEMONIC_VFNMADD213PD, ZYDIS_MNEMONIC_VFNMADD213SS,
      ZYDIS_MNEMONIC_VFNMADD213SD},
     {ZYDIS_MNEMONIC_VFNMADD231PS, ZYDIS_MNEMONIC_VFNMADD231PD, ZYDIS_MNEMONIC_VFNMADD231SS,
      ZYDIS_MNEMONIC_VFNMADD231SD}},
    {{ZYDIS_MNEMONIC_VFNMSUB132PS, ZYDIS_MNEMONIC_VFNMSUB132PD, ZYDIS_MNEMONIC_VFNMSUB132SS,
      ZYDIS_MNEMONIC_VFNMSUB132SD},
     {ZYDIS_MNEMONIC_VFNMSUB213PS, ZYDIS_MNEMONIC_VFNMSUB213PD, ZYDIS_MNEMONIC_VFNMSUB213SS,
      ZYDIS_MNEMONIC_VFNMSUB213SD},
     {ZYDIS_MNEMONIC_VFNMSUB231PS, ZYDIS_MNEMONIC_VFNMSUB231PD, ZYDIS_MNEMONIC_VFNMSUB231SS,
      ZYDIS_MNEMONIC_VFNMSUB231SD}},
    {{ZYDIS_MNEMONIC_VFMADDSUB132PS, ZYDIS_MNEMONIC_VFMADDSUB132PD},
     {ZYDIS_MNEMONIC_VFMADDSUB213PS, ZYDIS_MNEMONIC_VFMADDSUB213PD},
     {ZYDIS_MNEMONIC_VFMADDSUB231PS, ZYDIS_MNEMONIC_VFMADDSUB231PD}},
    {{ZYDIS_MNEMONIC_VFMSUBADD132PS, ZYDIS_MNEMONIC_VFMSUBADD132PD},
     {ZYDIS_MNEMONIC_VFMSUBADD213PS, ZYDIS_MNEMONIC_VFMSUBADD213PD},
     {ZYDIS_MNEMONIC_VFMSUBADD231PS, ZYDIS_MNEMONIC_VFMSUBADD231PD}},
};

struct FmaForm {
  FmaOp op;
  const unsigned *order;
  Shape shape;
};

FmaForm fmaForm(ZydisMnemonic mnemonic) {
  for (unsigned op = 0; op < 6; ++op)
    for (unsigned order = 0; order < 3; ++order)
      for (unsigned shape = 0; shape < 4; ++shape)
        if (FmaMnemonics[op][order][shape] == mnemonic)
          return {FmaOps[op], Orders[order], Shape(shape)};
  assert(false && "not an FMA mnemonic");
  return {};
}

/// a*b + c, a*b - c, -(a*b) + c or -(a*b) - c with one rounding (an EVEX form's static
/// rounding); for the alternating forms `odd` says which of the two an element gets
/// (vfmaddsub subtracts in even elements).
llvm::Value *fusedMultiply(LiftContext &ctx, FmaOp op, bool odd, llvm::Value *a, llvm::Value *b,
                           llvm::Value *c) {
  LiftBuilder &ir = ctx.ir;
  bool negateProduct = op == FmaOp::NegMulAdd || op == FmaOp::NegMulSub;
  bool subtract = op == FmaOp::MulSub || op == FmaOp::NegMulSub ||
                  (op == FmaOp::MulAddSub && !odd) || (op == FmaOp::MulSubAdd && odd);
  llvm::Value *product = negateProduct ? ir.CreateFNeg(a) : a;
  llvm::Value *addend = subtract ? ir.CreateFNeg(c) : c;
  return fp::roundedFusedMultiplyAdd(ctx, product, b, addend, fp::staticRounding(ctx.instr()));
}

/// The FMA3 instructions (SDM vol. 2, VFMADD132PS ...): the digits name the operands that are
/// multiplied and the one added. The result is rounded once; a NaN operand wins in the
/// order of the formula (the multiplied ones, then the added one), not of the instruction's
/// operands, as the CPU shows; an invalid operation (inf*0, inf-inf) gives the default NaN.
/// `operands` in the instruction's order, destination first.
llvm::Value *fmaResult(LiftContext &ctx, const FmaForm &form, llvm::Value *const (&operands)[3]) {
  llvm::Value *a = operands[form.order[0] - 1];
  llvm::Value *b = operands[form.order[1] - 1];
  llvm::Value *c = operands[form.order[2] - 1];
  llvm::Value *result = fusedMultiply(ctx, form.op, false, a, b, c);
  if (form.op == FmaOp::MulAddSub || form.op == FmaOp::MulSubAdd) {
    llvm::Value *oddResult = fusedMultiply(ctx, form.op, true, a, b, c);
    unsigned count = llvm::cast<llvm::FixedVectorType>(a->getType())->getNumElements();
    llvm::SmallVector<int, 16> mask;
    for (unsigned i = 0; i < count; ++i)
      mask.push_back(int(i % 2 ? count + i : i));
    result = ctx.ir.CreateShuffleVector(result, oddResult, mask);
  }
  return fp::x86NaN(ctx, {a, b, c}, result);
}

llvm::Type *fmaElement(LiftContext &ctx, const FmaForm &form) {
  bool isDouble = form.shape == Pd || form.shape == Sd;
  return isDouble ? ctx.ir.getDoubleTy() : ctx.ir.getFloatTy();
}

/// The VEX forms. Scalar forms keep the upper elements of the destination.
LiftStatus liftFma(LiftContext &ctx, const Instr &instr) {
  FmaForm form = fmaForm(instr.mnemonic);
  bool scalar = form.shape == Ss || form.shape == Sd;
  llvm::Type *element = fmaElement(ctx, form);
  llvm::Value *operands[3];
  for (unsigned i = 0; i < 3; ++i)
    operands[i] = scalar ? ctx.readScalar(i, element) : ctx.readVector(i, element);
  llvm::Value *destination = scalar ? ctx.readVectorReg(instr.op(0).reg, element) : nullptr;
  llvm::Value *result = fmaResult(ctx, form, operands);
  if (scalar)
    result = ctx.ir.CreateInsertElement(destination, result, uint64_t(0));
  ctx.writeVector(0, result);
  return LiftStatus::Lifted;
}

/// The packed EVEX forms: the third operand may be memory or a broadcast, the result is
/// written under the write mask (a merge keeps the destination's old elements).
LiftStatus liftEvexFma(LiftContext &ctx, const Instr &instr) {
  FmaForm form = fmaForm(instr.mnemonic);
  return avx512::liftThreeSources(ctx, fmaElement(ctx, form),
                                  [&](llvm::Value *a, llvm::Value *b, llvm::Value *c) {
                                    return fmaResult(ctx, form, {a, b, c});
                                  });
}

/// The scalar EVEX forms: element 0 of the destination, src1 and src2 (memory read only where
/// the mask enables it), the result in element 0 under bit 0 of the mask, the rest of the
/// destination's xmm kept.
LiftStatus liftEvexScalarFma(LiftContext &ctx, const Instr &instr) {
  FmaForm form = fmaForm(instr.mnemonic);
  llvm::Type *element = fmaElement(ctx, form);
  llvm::Value *destination = ctx.readVectorReg(instr.op(0).reg, element);
  llvm::Value *first = ctx.readVectorReg(instr.op(avx512::dataOperand(instr, 1)).reg, element);
  llvm::Value *a = ctx.ir.CreateExtractElement(destination, uint64_t(0));
  llvm::Value *b = ctx.ir.CreateExtractElement(first, uint64_t(0));
  llvm::Value *c = avx512::readScalarSource(ctx, avx512::dataOperand(instr, 2), element);
  avx512::writeScalarResult(ctx, destination, fmaResult(ctx, form, {a, b, c}));
  return LiftStatus::Lifted;
}

} // namespace

bool fp::isFusedMultiplyAdd(ZydisMnemonic mnemonic) {
  for (const auto &op : FmaMnemonics)
    for (const auto &order : op)
      for (ZydisMnemonic candidate : order)
        if (candidate == mnemonic && mnemonic != ZYDIS_MNEMONIC_INVALID)
          return true;
  return false;
}

void registerSimdFma(SemanticTable &table) {
  for (const auto &op : FmaMnemonics)
    for (const auto &order : op)
      for (ZydisMnemonic mnemonic : order)
        if (mnemonic != ZYDIS_MNEMONIC_INVALID)
          table.add(mnemonic, liftFma);
}

void registerAvx512Fma(SemanticTable &table) {
  for (const auto &op : FmaMnemonics)
    for (const auto &order : op)
      for (unsigned shape : {Ps, Pd, Ss, Sd})
        if (order[shape] != ZYDIS_MNEMONIC_INVALID)
          table.add(order[shape], shape == Ss || shape == Sd ? liftEvexScalarFma : liftEvexFma);
}

} // namespace hoist
