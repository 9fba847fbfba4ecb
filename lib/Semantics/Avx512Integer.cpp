// AVX-512 packed-integer arithmetic (EVEX forms of Zydis categories AVX512, LOGICAL and
// AVX2 of the integer mnemonics): add and subtract, the bitwise operations with their
// element sizes for masking (vpandd/q, vpandnd/q, vpord/q, vpxord/q), vpternlogd/q,
// minimum and maximum, and the compares and tests that write an opmask register (vpcmp*,
// vpcmpeq*, vpcmpgt*, vptestm*, vptestnm*). Masking, zeroing and broadcasts come from
// Avx512Operands.
#include "Semantics/Avx512Operands.h"
#include "Semantics/SimdHelpers.h"

#include <llvm/IR/Intrinsics.h>

namespace hoist {
namespace {

using namespace avx512;

enum class Op { Add, Sub, And, AndNot, Or, Xor, MinU, MinS, MaxU, MaxS };

llvm::Value *apply(LiftContext &ctx, Op op, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  switch (op) {
  case Op::Add: return ir.CreateAdd(a, b);
  case Op::Sub: return ir.CreateSub(a, b);
  case Op::And: return ir.CreateAnd(a, b);
  case Op::AndNot: return ir.CreateAnd(ir.CreateNot(a), b);
  case Op::Or: return ir.CreateOr(a, b);
  case Op::Xor: return ir.CreateXor(a, b);
  case Op::MinU: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::umin, a, b);
  case Op::MinS: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::smin, a, b);
  case Op::MaxU: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::umax, a, b);
  case Op::MaxS: return ir.CreateBinaryIntrinsic(llvm::Intrinsic::smax, a, b);
  }
  return nullptr;
}

/// dest = src1 op src2, element by element, under the write mask.
template <unsigned ElementBits, Op Operation>
LiftStatus liftElementwise(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *a = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 2), element);
  writeResult(ctx, apply(ctx, Operation, a, b));
  return LiftStatus::Lifted;
}

/// vpternlogd/q: each result bit is bit (dest << 2 | src1 << 1 | src2) of imm8, the truth
/// table of any function of three bits; built as the OR of the minterms imm8 selects, which
/// folds to one operation for the usual tables (0x96 is a three-way xor).
template <unsigned ElementBits> LiftStatus liftTernaryLogic(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *a = readSource(ctx, dataOperand(instr, 0), element);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *c = readSource(ctx, dataOperand(instr, 2), element);
  unsigned table = simd::immediate(instr, dataOperand(instr, 3));
  auto &ir = ctx.ir;
  llvm::Value *result = llvm::Constant::getNullValue(a->getType());
  for (unsigned minterm = 0; minterm < 8; ++minterm) {
    if (!(table >> minterm & 1))
      continue;
    llvm::Value *x = minterm & 4 ? a : ir.CreateNot(a);
    llvm::Value *y = minterm & 2 ? b : ir.CreateNot(b);
    llvm::Value *z = minterm & 1 ? c : ir.CreateNot(c);
    result = ir.CreateOr(result, ir.CreateAnd(ir.CreateAnd(x, y), z));
  }
  writeResult(ctx, result);
  return LiftStatus::Lifted;
}

/// The vpcmp predicate imm8[2:0] (SDM vol. 2, VPCMP: EQ, LT, LE, FALSE, NEQ, NLT, NLE, TRUE).
llvm::Value *comparePredicate(LiftContext &ctx, unsigned predicate, bool isSigned,
                              llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  auto *bits = llvm::FixedVectorType::get(ir.getInt1Ty(), simd::elementCount(a));
  switch (predicate & 7) {
  case 0: return ir.CreateICmpEQ(a, b);
  case 1: return isSigned ? ir.CreateICmpSLT(a, b) : ir.CreateICmpULT(a, b);
  case 2: return isSigned ? ir.CreateICmpSLE(a, b) : ir.CreateICmpULE(a, b);
  case 3: return llvm::Constant::getNullValue(bits);
  case 4: return ir.CreateICmpNE(a, b);
  case 5: return isSigned ? ir.CreateICmpSGE(a, b) : ir.CreateICmpUGE(a, b);
  case 6: return isSigned ? ir.CreateICmpSGT(a, b) : ir.CreateICmpUGT(a, b);
  default: return llvm::Constant::getAllOnesValue(bits);
  }
}

/// vpcmp[u]b/w/d/q k1 {k2}, src1, src2, imm8: the predicate's result per element, cleared
/// where k2 disables the element, into k1 (bits above the element count zero).
template <unsigned ElementBits, bool Signed>
LiftStatus liftCompareToMask(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *a = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 2), element);
  unsigned predicate = simd::immediate(instr, dataOperand(instr, 3));
  writeMaskResult(ctx, comparePredicate(ctx, predicate, Signed, a, b));
  return LiftStatus::Lifted;
}

/// vpcmpeq* (predicate 0) and vpcmpgt* (signed greater, predicate 6) into an opmask.
template <unsigned ElementBits, unsigned Predicate>
LiftStatus liftFixedCompareToMask(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *a = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 2), element);
  writeMaskResult(ctx, comparePredicate(ctx, Predicate, true, a, b));
  return LiftStatus::Lifted;
}

/// vptestm* (Zero false: src1 & src2 is not zero) and vptestnm* (Zero true: it is zero).
template <unsigned ElementBits, bool Zero>
LiftStatus liftTestToMask(LiftContext &ctx, const Instr &instr) {
  llvm::Type *element = ctx.intType(ElementBits);
  llvm::Value *a = readSource(ctx, dataOperand(instr, 1), element);
  llvm::Value *b = readSource(ctx, dataOperand(instr, 2), element);
  llvm::Value *both = ctx.ir.CreateAnd(a, b);
  llvm::Value *zero = llvm::Constant::getNullValue(both->getType());
  writeMaskResult(ctx, Zero ? ctx.ir.CreateICmpEQ(both, zero) : ctx.ir.CreateICmpNE(both, zero));
  return LiftStatus::Lifted;
}

} // namespace

void registerAvx512Integer(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VPADDB, liftElementwise<8, Op::Add>);
  table.add(ZYDIS_MNEMONIC_VPADDW, liftElementwise<16, Op::Add>);
  table.add(ZYDIS_MNEMONIC_VPADDD, liftElementwise<32, Op::Add>);
  table.add(ZYDIS_MNEMONIC_VPADDQ, liftElementwise<64, Op::Add>);
  table.add(ZYDIS_MNEMONIC_VPSUBB, liftElementwise<8, Op::Sub>);
  table.add(ZYDIS_MNEMONIC_VPSUBW, liftElementwise<16, Op::Sub>);
  table.add(ZYDIS_MNEMONIC_VPSUBD, liftElementwise<32, Op::Sub>);
  table.add(ZYDIS_MNEMONIC_VPSUBQ, liftElementwise<64, Op::Sub>);
  table.add(ZYDIS_MNEMONIC_VPANDD, liftElementwise<32, Op::And>);
  table.add(ZYDIS_MNEMONIC_VPANDQ, liftElementwise<64, Op::And>);
  table.add(ZYDIS_MNEMONIC_VPANDND, liftElementwise<32, Op::AndNot>);
  table.add(ZYDIS_MNEMONIC_VPANDNQ, liftElementwise<64, Op::AndNot>);
  table.add(ZYDIS_MNEMONIC_VPORD, liftElementwise<32, Op::Or>);
  table.add(ZYDIS_MNEMONIC_VPORQ, liftElementwise<64, Op::Or>);
  table.add(ZYDIS_MNEMONIC_VPXORD, liftElementwise<32, Op::Xor>);
  table.add(ZYDIS_MNEMONIC_VPXORQ, liftElementwise<64, Op::Xor>);
  table.add(ZYDIS_MNEMONIC_VPMINUB, liftElementwise<8, Op::MinU>);
  table.add(ZYDIS_MNEMONIC_VPMINUW, liftElementwise<16, Op::MinU>);
  table.add(ZYDIS_MNEMONIC_VPMINUD, liftElementwise<32, Op::MinU>);
  table.add(ZYDIS_MNEMONIC_VPMINUQ, liftElementwise<64, Op::MinU>);
  table.add(ZYDIS_MNEMONIC_VPMINSB, liftElementwise<8, Op::MinS>);
  table.add(ZYDIS_MNEMONIC_VPMINSW, liftElementwise<16, Op::MinS>);
  table.add(ZYDIS_MNEMONIC_VPMINSD, liftElementwise<32, Op::MinS>);
  table.add(ZYDIS_MNEMONIC_VPMINSQ, liftElementwise<64, Op::MinS>);
  table.add(ZYDIS_MNEMONIC_VPMAXUB, liftElementwise<8, Op::MaxU>);
  table.add(ZYDIS_MNEMONIC_VPMAXUW, liftElementwise<16, Op::MaxU>);
  table.add(ZYDIS_MNEMONIC_VPMAXUD, liftElementwise<32, Op::MaxU>);
  table.add(ZYDIS_MNEMONIC_VPMAXUQ, liftElementwise<64, Op::MaxU>);
  table.add(ZYDIS_MNEMONIC_VPMAXSB, liftElementwise<8, Op::MaxS>);
  table.add(ZYDIS_MNEMONIC_VPMAXSW, liftElementwise<16, Op::MaxS>);
  table.add(ZYDIS_MNEMONIC_VPMAXSD, liftElementwise<32, Op::MaxS>);
  table.add(ZYDIS_MNEMONIC_VPMAXSQ, liftElementwise<64, Op::MaxS>);
  table.add(ZYDIS_MNEMONIC_VPTERNLOGD, liftTernaryLogic<32>);
  table.add(ZYDIS_MNEMONIC_VPTERNLOGQ, liftTernaryLogic<64>);
  table.add(ZYDIS_MNEMONIC_VPCMPB, liftCompareToMask<8, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPUB, liftCompareToMask<8, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPW, liftCompareToMask<16, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPUW, liftCompareToMask<16, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPD, liftCompareToMask<32, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPUD, liftCompareToMask<32, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPQ, liftCompareToMask<64, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPUQ, liftCompareToMask<64, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPEQB, liftFixedCompareToMask<8, 0>);
  table.add(ZYDIS_MNEMONIC_VPCMPEQW, liftFixedCompareToMask<16, 0>);
  table.add(ZYDIS_MNEMONIC_VPCMPEQD, liftFixedCompareToMask<32, 0>);
  table.add(ZYDIS_MNEMONIC_VPCMPEQQ, liftFixedCompareToMask<64, 0>);
  table.add(ZYDIS_MNEMONIC_VPCMPGTB, liftFixedCompareToMask<8, 6>);
  table.add(ZYDIS_MNEMONIC_VPCMPGTW, liftFixedCompareToMask<16, 6>);
  table.add(ZYDIS_MNEMONIC_VPCMPGTD, liftFixedCompareToMask<32, 6>);
  table.add(ZYDIS_MNEMONIC_VPCMPGTQ, liftFixedCompareToMask<64, 6>);
  table.add(ZYDIS_MNEMONIC_VPTESTMB, liftTestToMask<8, false>);
  table.add(ZYDIS_MNEMONIC_VPTESTMW, liftTestToMask<16, false>);
  table.add(ZYDIS_MNEMONIC_VPTESTMD, liftTestToMask<32, false>);
  table.add(ZYDIS_MNEMONIC_VPTESTMQ, liftTestToMask<64, false>);
  table.add(ZYDIS_MNEMONIC_VPTESTNMB, liftTestToMask<8, true>);
  table.add(ZYDIS_MNEMONIC_VPTESTNMW, liftTestToMask<16, true>);
  table.add(ZYDIS_MNEMONIC_VPTESTNMD, liftTestToMask<32, true>);
  table.add(ZYDIS_MNEMONIC_VPTESTNMQ, liftTestToMask<64, true>);
}

} // namespace hoist
