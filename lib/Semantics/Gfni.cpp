// GFNI (Zydis category GFNI): gf2p8mulb, gf2p8affineqb and gf2p8affineinvqb in their legacy
// SSE, VEX (xmm, ymm) and EVEX (xmm, ymm, zmm, a write mask per byte, {1to8} broadcast of the
// matrix) forms, in generic IR: multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 and
// the affine transform y = A x + b of each byte by the 8x8 bit matrix of its qword.
#include "Semantics/Avx512Operands.h"
#include "Semantics/Semantics.h"
#include "Semantics/SimdHelpers.h"

#include <llvm/ADT/SmallVector.h>

namespace hoist {
namespace {

/// Byte-wise product in GF(2^8) with the reduction polynomial 0x11B (SDM vol. 2, GF2P8MULB),
/// of two `<n x i8>` vectors: shift and add, reducing each doubling of `a`.
llvm::Value *fieldMultiply(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  llvm::Type *type = a->getType();
  auto splat = [&](uint8_t v) { return llvm::ConstantInt::get(type, v); };
  llvm::Value *zero = llvm::Constant::getNullValue(type);
  llvm::Value *product = zero;
  for (unsigned i = 0; i < 8; ++i) {
    // All ones where bit i of b is set.
    llvm::Value *select = ir.CreateSub(zero, ir.CreateAnd(ir.CreateLShr(b, splat(i)), splat(1)));
    product = ir.CreateXor(product, ir.CreateAnd(a, select));
    llvm::Value *carry = ir.CreateSub(zero, ir.CreateLShr(a, splat(7)));
    a = ir.CreateXor(ir.CreateShl(a, splat(1)), ir.CreateAnd(carry, splat(0x1b)));
  }
  return product;
}

/// The multiplicative inverse of each byte in GF(2^8), zero for zero: x^254, by squaring and
/// multiplying (x^254 = (x^127)^2, x^(2k+1) = (x^k)^2 x).
llvm::Value *fieldInverse(LiftContext &ctx, llvm::Value *x) {
  llvm::Value *power = x;   // x^1, then x^3, x^7, ... x^127
  for (unsigned i = 0; i < 6; ++i)
    power = fieldMultiply(ctx, fieldMultiply(ctx, power, power), x);
  return fieldMultiply(ctx, power, power);
}

/// The affine transform of each byte of `x` (`<n x i8>`) by the matrix of its qword in
/// `matrix` (`<n/8 x i64>`): bit i of the result is the parity of matrix byte 7 - i AND x,
/// XOR imm8 bit i (SDM vol. 2, GF2P8AFFINEQB).
llvm::Value *affineTransform(LiftContext &ctx, llvm::Value *x, llvm::Value *matrix,
                             unsigned imm) {
  auto &ir = ctx.ir;
  unsigned count = simd::elementCount(x);
  llvm::Type *type = x->getType();
  auto splat = [&](uint8_t v) { return llvm::ConstantInt::get(type, v); };
  llvm::Value *rows = ir.CreateBitCast(matrix, type);
  llvm::Value *result = splat(uint8_t(imm));
  for (unsigned bit = 0; bit < 8; ++bit) {
    llvm::SmallVector<int, 64> pick;   // row 7 - bit of each byte's own qword
    for (unsigned i = 0; i < count; ++i)
      pick.push_back(int(i / 8 * 8 + 7 - bit));
    llvm::Value *row = ir.CreateShuffleVector(rows, pick);
    llvm::Value *ones = ir.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, ir.CreateAnd(row, x));
    llvm::Value *parity = ir.CreateAnd(ones, splat(1));
    result = ir.CreateXor(result, ir.CreateShl(parity, splat(uint8_t(bit))));
  }
  return result;
}

enum class Gf { Multiply, Affine, AffineInverse };

llvm::Value *compute(LiftContext &ctx, Gf op, llvm::Value *a, llvm::Value *b, unsigned imm) {
  switch (op) {
  case Gf::Multiply:
    return fieldMultiply(ctx, a, b);
  case Gf::Affine:
    return affineTransform(ctx, a, b, imm);
  case Gf::AffineInverse:
    return affineTransform(ctx, fieldInverse(ctx, a), b, imm);
  }
  return nullptr;
}

/// gf2p8mulb xmm1, xmm2/m128 and the VEX forms vgf2p8* xmm1, xmm2, xmm3/m128 (ymm): the
/// second source as bytes (mulb) or as qword matrices (affine), imm8 last.
template <Gf Op> LiftStatus liftGf(LiftContext &ctx, const Instr &instr) {
  unsigned first = ctx.firstSource();
  llvm::Type *secondElement = Op == Gf::Multiply ? ctx.ir.getInt8Ty() : ctx.ir.getInt64Ty();
  unsigned imm = Op == Gf::Multiply ? 0 : simd::immediate(instr, first + 2);
  llvm::Value *a = ctx.readVector(first, ctx.ir.getInt8Ty());
  llvm::Value *b = ctx.readVector(first + 1, secondElement);
  ctx.writeVector(0, compute(ctx, Op, a, b, imm));
  return LiftStatus::Lifted;
}

/// The EVEX forms: vgf2p8* zmm1 {k1}{z}, zmm2, zmm3/m512[/m64bcst], imm8, masked per byte. A
/// memory matrix operand (qwords, with broadcast) is read whole whatever the byte mask.
template <Gf Op> LiftStatus liftAvx512Gf(LiftContext &ctx, const Instr &instr) {
  using namespace avx512;
  unsigned imm = Op == Gf::Multiply ? 0 : simd::immediate(instr, dataOperand(instr, 3));
  llvm::Value *a = readSource(ctx, dataOperand(instr, 1), ctx.ir.getInt8Ty());
  llvm::Value *b =
      Op == Gf::Multiply
          ? readSource(ctx, dataOperand(instr, 2), ctx.ir.getInt8Ty())
          : readSource(ctx, dataOperand(instr, 2), ctx.ir.getInt64Ty(), 0, MemoryMask::Whole);
  writeResult(ctx, compute(ctx, Op, a, b, imm));
  return LiftStatus::Lifted;
}

} // namespace

void registerGfni(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_GF2P8MULB, liftGf<Gf::Multiply>);
  table.add(ZYDIS_MNEMONIC_VGF2P8MULB, liftGf<Gf::Multiply>);
  table.add(ZYDIS_MNEMONIC_GF2P8AFFINEQB, liftGf<Gf::Affine>);
  table.add(ZYDIS_MNEMONIC_VGF2P8AFFINEQB, liftGf<Gf::Affine>);
  table.add(ZYDIS_MNEMONIC_GF2P8AFFINEINVQB, liftGf<Gf::AffineInverse>);
  table.add(ZYDIS_MNEMONIC_VGF2P8AFFINEINVQB, liftGf<Gf::AffineInverse>);
}

void registerAvx512Gfni(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VGF2P8MULB, liftAvx512Gf<Gf::Multiply>);
  table.add(ZYDIS_MNEMONIC_VGF2P8AFFINEQB, liftAvx512Gf<Gf::Affine>);
  table.add(ZYDIS_MNEMONIC_VGF2P8AFFINEINVQB, liftAvx512Gf<Gf::AffineInverse>);
}

} // namespace hoist
