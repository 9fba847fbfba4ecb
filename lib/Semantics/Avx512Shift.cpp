// AVX-512 packed shifts (EVEX forms): vpsll/vpsrl/vpsra of words, doublewords and quadwords
// by an immediate, by the low quadword of an xmm register or memory, and by a count per
// element (vpsllv*, vpsrlv*, vpsrav*); the rotates by an immediate or per element (vprold/q,
// vprord/q, vprolvd/q, vprorvd/q); the concatenating shifts of VBMI2 (vpshld*, vpshrd*) and
// vpmultishiftqb. A count of the element width or more gives zero, or
// the sign in every bit for the arithmetic shifts (SDM vol. 2, VPSLLW/VPSRLW/VPSRAW...).
// Masking, zeroing and broadcasts come from Avx512Operands.
#include "Semantics/Avx512Operands.h"
#include "Semantics/SimdHelpers.h"

#include <llvm/IR/Intrinsics.h>

namespace hoist {
namespace {

using namespace avx512;

enum class Shift { Left, Right, Arithmetic, RotateLeft, RotateRight };

/// The high half of hi:lo shifted left, or the low half of hi:lo shifted right, by `count`
/// modulo the element width (llvm.fshl/fshr, as the CPU does).
llvm::Value *funnelShift(LiftContext &ctx, bool left, llvm::Value *high, llvm::Value *low,
                         llvm::Value *count) {
  return ctx.ir.CreateIntrinsic(left ? llvm::Intrinsic::fshl : llvm::Intrinsic::fshr,
                                {high->getType()}, {high, low, count});
}

/// `value` shifted by `count` (a vector of the same type), with x86's rule for counts of the
/// width or more, which LLVM leaves poison; or rotated by `count` modulo the width, as
/// llvm.fshl/fshr take it and as the CPU does (SDM vol. 2, VPROLD/VPRORD).
llvm::Value *shiftElements(LiftContext &ctx, Shift kind, llvm::Value *value, llvm::Value *count) {
  if (kind == Shift::RotateLeft || kind == Shift::RotateRight)
    return funnelShift(ctx, kind == Shift::RotateLeft, value, value, count);
  auto &ir = ctx.ir;
  unsigned bits = value->getType()->getScalarSizeInBits();
  llvm::Value *width = llvm::ConstantInt::get(value->getType(), bits);
  llvm::Value *tooFar = ir.CreateICmpUGE(count, width);
  llvm::Value *zero = llvm::Constant::getNullValue(value->getType());
  if (kind == Shift::Arithmetic) {
    llvm::Value *clamped =
        ir.CreateSelect(tooFar, llvm::ConstantInt::get(value->getType(), bits - 1), count);
    return ir.CreateAShr(value, clamped);
  }
  llvm::Value *safe = ir.CreateSelect(tooFar, zero, count);
  llvm::Value *shifted = kind == Shift::Left ? ir.CreateShl(value, safe) : ir.CreateLShr(value, safe);
  return ir.CreateSelect(tooFar, zero, shifted);
}

/// vpsllw/d/q ... zmm1 {k1}, zmm2/m/bcst, imm8 (and vprold/q, vprord/q): every element by
/// the whole imm8.
template <unsigned ElementBits, Shift Kind>
LiftStatus liftShiftByImmediate(LiftContext &ctx, const Instr &instr) {
  uint64_t count = simd::immediate(instr, dataOperand(instr, 2));
  return liftOneSource(ctx, ctx.intType(ElementBits), [&](llvm::Value *value) {
    return shiftElements(ctx, Kind, value, llvm::ConstantInt::get(value->getType(), count));
  });
}

/// vpsllw/d/q ... zmm1 {k1}, zmm2, xmm3/m128: every element by the low quadword of xmm3/m128
/// (all 64 bits count: 0x100 shifts everything out).
template <unsigned ElementBits, Shift Kind>
LiftStatus liftShiftByVector(LiftContext &ctx, const Instr &instr) {
  return liftOneSource(ctx, ctx.intType(ElementBits), [&](llvm::Value *value) {
    llvm::Value *count64 = ctx.readScalar(dataOperand(instr, 2), ctx.ir.getInt64Ty());
    // Counts past the width all act alike, so saturating to the width keeps them in the type.
    llvm::Value *saturated = ctx.ir.CreateBinaryIntrinsic(llvm::Intrinsic::umin, count64,
                                                          ctx.ir.getInt64(ElementBits));
    llvm::Value *count = ctx.ir.CreateTrunc(saturated, ctx.intType(ElementBits));
    llvm::Value *counts = ctx.ir.CreateVectorSplat(simd::elementCount(value), count);
    return shiftElements(ctx, Kind, value, counts);
  });
}

/// vpsllvw/d/q, vpsrlvw/d/q, vpsravw/d/q (and vprolvd/q, vprorvd/q): each element by the
/// matching element of src2.
template <unsigned ElementBits, Shift Kind>
LiftStatus liftShiftByElement(LiftContext &ctx, const Instr &) {
  return liftTwoSources(ctx, ctx.intType(ElementBits),
                        [&](llvm::Value *value, llvm::Value *counts) {
                          return shiftElements(ctx, Kind, value, counts);
                        });
}

/// vpshldw/d/q (Left): the high half of src1:src2 shifted left by imm8; vpshrdw/d/q: the low
/// half of src2:src1 shifted right (SDM vol. 2, VPSHLD, VPSHRD).
template <unsigned ElementBits, bool Left>
LiftStatus liftConcatShiftByImmediate(LiftContext &ctx, const Instr &instr) {
  uint64_t count = simd::immediate(instr, dataOperand(instr, 3));
  return liftTwoSources(ctx, ctx.intType(ElementBits), [&](llvm::Value *a, llvm::Value *b) {
    llvm::Value *counts = llvm::ConstantInt::get(a->getType(), count);
    return Left ? funnelShift(ctx, true, a, b, counts) : funnelShift(ctx, false, b, a, counts);
  });
}

/// vpshldvw/d/q: the high half of dest:src1 shifted left by src2; vpshrdvw/d/q: the low half
/// of src1:dest shifted right (SDM vol. 2, VPSHLDV, VPSHRDV).
template <unsigned ElementBits, bool Left>
LiftStatus liftConcatShiftByElement(LiftContext &ctx, const Instr &) {
  return liftThreeSources(ctx, ctx.intType(ElementBits),
                          [&](llvm::Value *dest, llvm::Value *a, llvm::Value *counts) {
                            return Left ? funnelShift(ctx, true, dest, a, counts)
                                        : funnelShift(ctx, false, a, dest, counts);
                          });
}

/// vpmultishiftqb: byte j of each quadword of the result is the 8 bits of the same quadword of
/// src2 from bit (byte j of src1) & 63 on, wrapping around (SDM vol. 2, VPMULTISHIFTQB). The
/// CPU reads a memory operand whole whatever the mask.
LiftStatus liftMultishift(LiftContext &ctx, const Instr &) {
  return liftTwoSources(
      ctx, ctx.ir.getInt64Ty(),
      [&](llvm::Value *controls, llvm::Value *data) {
        auto &ir = ctx.ir;
        unsigned bytes = simd::elementCount(data) * 8;
        auto *byteVector = llvm::FixedVectorType::get(ir.getInt8Ty(), bytes);
        auto *wide = llvm::FixedVectorType::get(ir.getInt64Ty(), bytes);
        llvm::SmallVector<int, 64> repeat;
        for (unsigned i = 0; i < bytes; ++i)
          repeat.push_back(int(i / 8));
        llvm::Value *quadwords = ir.CreateShuffleVector(data, repeat);
        llvm::Value *offsets = ir.CreateZExt(ir.CreateBitCast(controls, byteVector), wide);
        offsets = ir.CreateAnd(offsets, llvm::ConstantInt::get(wide, 63));
        return ir.CreateTrunc(funnelShift(ctx, false, quadwords, quadwords, offsets), byteVector);
      },
      MemoryMask::Whole);
}

/// The immediate and vector-count forms share a mnemonic: the last operand tells them apart.
template <unsigned ElementBits, Shift Kind>
LiftStatus liftShift(LiftContext &ctx, const Instr &instr) {
  if (instr.op(dataOperand(instr, 2)).isImm())
    return liftShiftByImmediate<ElementBits, Kind>(ctx, instr);
  return liftShiftByVector<ElementBits, Kind>(ctx, instr);
}

} // namespace

void registerAvx512Shift(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VPSLLW, liftShift<16, Shift::Left>);
  table.add(ZYDIS_MNEMONIC_VPSLLD, liftShift<32, Shift::Left>);
  table.add(ZYDIS_MNEMONIC_VPSLLQ, liftShift<64, Shift::Left>);
  table.add(ZYDIS_MNEMONIC_VPSRLW, liftShift<16, Shift::Right>);
  table.add(ZYDIS_MNEMONIC_VPSRLD, liftShift<32, Shift::Right>);
  table.add(ZYDIS_MNEMONIC_VPSRLQ, liftShift<64, Shift::Right>);
  table.add(ZYDIS_MNEMONIC_VPSRAW, liftShift<16, Shift::Arithmetic>);
  table.add(ZYDIS_MNEMONIC_VPSRAD, liftShift<32, Shift::Arithmetic>);
  table.add(ZYDIS_MNEMONIC_VPSRAQ, liftShift<64, Shift::Arithmetic>);
  table.add(ZYDIS_MNEMONIC_VPSLLVW, liftShiftByElement<16, Shift::Left>);
  table.add(ZYDIS_MNEMONIC_VPSLLVD, liftShiftByElement<32, Shift::Left>);
  table.add(ZYDIS_MNEMONIC_VPSLLVQ, liftShiftByElement<64, Shift::Left>);
  table.add(ZYDIS_MNEMONIC_VPSRLVW, liftShiftByElement<16, Shift::Right>);
  table.add(ZYDIS_MNEMONIC_VPSRLVD, liftShiftByElement<32, Shift::Right>);
  table.add(ZYDIS_MNEMONIC_VPSRLVQ, liftShiftByElement<64, Shift::Right>);
  table.add(ZYDIS_MNEMONIC_VPSRAVW, liftShiftByElement<16, Shift::Arithmetic>);
  table.add(ZYDIS_MNEMONIC_VPSRAVD, liftShiftByElement<32, Shift::Arithmetic>);
  table.add(ZYDIS_MNEMONIC_VPSRAVQ, liftShiftByElement<64, Shift::Arithmetic>);
  table.add(ZYDIS_MNEMONIC_VPROLD, liftShiftByImmediate<32, Shift::RotateLeft>);
  table.add(ZYDIS_MNEMONIC_VPROLQ, liftShiftByImmediate<64, Shift::RotateLeft>);
  table.add(ZYDIS_MNEMONIC_VPRORD, liftShiftByImmediate<32, Shift::RotateRight>);
  table.add(ZYDIS_MNEMONIC_VPRORQ, liftShiftByImmediate<64, Shift::RotateRight>);
  table.add(ZYDIS_MNEMONIC_VPROLVD, liftShiftByElement<32, Shift::RotateLeft>);
  table.add(ZYDIS_MNEMONIC_VPROLVQ, liftShiftByElement<64, Shift::RotateLeft>);
  table.add(ZYDIS_MNEMONIC_VPRORVD, liftShiftByElement<32, Shift::RotateRight>);
  table.add(ZYDIS_MNEMONIC_VPRORVQ, liftShiftByElement<64, Shift::RotateRight>);
  table.add(ZYDIS_MNEMONIC_VPSHLDW, liftConcatShiftByImmediate<16, true>);
  table.add(ZYDIS_MNEMONIC_VPSHLDD, liftConcatShiftByImmediate<32, true>);
  table.add(ZYDIS_MNEMONIC_VPSHLDQ, liftConcatShiftByImmediate<64, true>);
  table.add(ZYDIS_MNEMONIC_VPSHRDW, liftConcatShiftByImmediate<16, false>);
  table.add(ZYDIS_MNEMONIC_VPSHRDD, liftConcatShiftByImmediate<32, false>);
  table.add(ZYDIS_MNEMONIC_VPSHRDQ, liftConcatShiftByImmediate<64, false>);
  table.add(ZYDIS_MNEMONIC_VPSHLDVW, liftConcatShiftByElement<16, true>);
  table.add(ZYDIS_MNEMONIC_VPSHLDVD, liftConcatShiftByElement<32, true>);
  table.add(ZYDIS_MNEMONIC_VPSHLDVQ, liftConcatShiftByElement<64, true>);
  table.add(ZYDIS_MNEMONIC_VPSHRDVW, liftConcatShiftByElement<16, false>);
  table.add(ZYDIS_MNEMONIC_VPSHRDVD, liftConcatShiftByElement<32, false>);
  table.add(ZYDIS_MNEMONIC_VPSHRDVQ, liftConcatShiftByElement<64, false>);
  table.add(ZYDIS_MNEMONIC_VPMULTISHIFTQB, liftMultishift);
}

} // namespace hoist
