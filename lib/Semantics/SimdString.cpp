// SSE4.2 string and text compares (Zydis category SSE, ISA set SSE4.2 STTNI): pcmpistri,
// pcmpistrm, pcmpestri, pcmpestrm and their VEX forms (SDM vol. 1, 12.10 and vol. 2,
// 4.1 "Imm8 Control Byte Operation for PCMPESTRI / PCMPESTRM / PCMPISTRI / PCMPISTRM").
//
// The control byte is an immediate, so the semantic builds only the IR of the one format,
// aggregation, polarity and output it selects. Intermediate results are <n x i1> vectors over
// the elements of the second source (n = 16 bytes or 8 words).
#include "Semantics/Semantics.h"

#include <llvm/IR/Intrinsics.h>

namespace hoist {
namespace {

enum class Aggregation { EqualAny = 0, Ranges = 1, EqualEach = 2, EqualOrdered = 3 };

/// The fields of imm8 (SDM vol. 2, 4.1.1 to 4.1.6).
struct CompareControl {
  bool words;             // bit 0: 16-bit elements
  bool isSigned;          // bit 1: signed elements (matters for ranges only)
  Aggregation aggregation;  // bits 2-3
  unsigned polarity;      // bits 4-5
  bool mostSignificant;   // bit 6: the highest index, or a byte/word mask instead of a bit mask

  explicit CompareControl(uint64_t imm)
      : words(imm & 1), isSigned(imm & 2), aggregation(Aggregation((imm >> 2) & 3)),
        polarity((imm >> 4) & 3), mostSignificant(imm & 0x40) {}
  unsigned elements() const { return words ? 8 : 16; }
};

/// The implicit length of a string: the index of its first zero element, n when it has none.
llvm::Value *implicitLength(LiftContext &ctx, llvm::Value *string, unsigned n) {
  auto &ir = ctx.ir;
  llvm::Value *zeros =
      ir.CreateICmpEQ(string, llvm::Constant::getNullValue(string->getType()));
  llvm::Value *bits = ir.CreateBitCast(zeros, ctx.intType(n));
  llvm::Value *first = ir.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, bits, ir.getFalse());
  return ir.CreateZExt(first, ir.getInt32Ty());
}

/// An explicit length from eax/edx (rax/rdx with REX.W): its absolute value, saturated to n
/// (SDM vol. 2, 4.1.1). The absolute value of the most negative number is itself, which is
/// above n unsigned, so it saturates too.
llvm::Value *explicitLength(LiftContext &ctx, llvm::Value *length, unsigned n) {
  auto &ir = ctx.ir;
  llvm::Type *type = length->getType();
  llvm::Value *zero = llvm::ConstantInt::get(type, 0);
  llvm::Value *absolute = ir.CreateSelect(ir.CreateICmpSLT(length, zero),
                                          ir.CreateSub(zero, length), length);
  llvm::Value *limit = llvm::ConstantInt::get(type, n);
  llvm::Value *saturated =
      ir.CreateSelect(ir.CreateICmpUGT(absolute, limit), limit, absolute);
  return ir.CreateTrunc(saturated, ir.getInt32Ty());
}

/// The register of the implicit operand that `wanted` (rax or rdx) encloses: eax, or rax under
/// REX.W.
ZydisRegister implicitRegister(const Instr &instr, ZydisRegister wanted) {
  for (unsigned i = instr.explicitCount; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isReg() && operand.read &&
        ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, operand.reg) == wanted)
      return operand.reg;
  }
  return ZYDIS_REGISTER_NONE;
}

/// Builds IntRes1 and IntRes2 for one control byte.
class StringCompare {
public:
  StringCompare(LiftContext &ctx, CompareControl control, llvm::Value *src1, llvm::Value *src2,
                llvm::Value *len1, llvm::Value *len2)
      : ir_(ctx.ir), control_(control), n_(control.elements()), src1_(src1),
        src2_(src2) {
    llvm::SmallVector<llvm::Constant *, 16> indices;
    for (unsigned i = 0; i < n_; ++i)
      indices.push_back(ir_.getInt32(i));
    llvm::Constant *index = llvm::ConstantVector::get(indices);
    valid1_ = ir_.CreateICmpULT(index, ir_.CreateVectorSplat(n_, len1));
    valid2_ = ir_.CreateICmpULT(index, ir_.CreateVectorSplat(n_, len2));
    len1_ = len1;
    allTrue_ = llvm::Constant::getAllOnesValue(valid1_->getType());
    allFalse_ = llvm::Constant::getNullValue(valid1_->getType());
  }

  /// IntRes2: the aggregation's result with the polarity applied (SDM vol. 2, 4.1.4-4.1.5).
  llvm::Value *result() {
    llvm::Value *intRes1 = aggregate();
    switch (control_.polarity) {
    case 1: // negative polarity
      return ir_.CreateXor(intRes1, allTrue_);
    case 3: // masked negative: only the valid elements of src2 are negated
      return ir_.CreateXor(intRes1, valid2_);
    default:
      return intRes1;
    }
  }

private:
  llvm::Value *aggregate() {
    switch (control_.aggregation) {
    case Aggregation::EqualAny:
      return equalAny();
    case Aggregation::Ranges:
      return ranges();
    case Aggregation::EqualEach:
      return equalEach();
    case Aggregation::EqualOrdered:
      return equalOrdered();
    }
    return nullptr;
  }

  /// Whether element j of src1 is valid (j < len1).
  llvm::Value *valid1(unsigned j) { return ir_.CreateICmpULT(ir_.getInt32(j), len1_); }

  /// BoolRes[j][*]: src1[j] compared with every element of src2, before the overrides for
  /// invalid elements. For ranges, an even j is a lower bound and an odd j an upper bound.
  llvm::Value *row(unsigned j, llvm::CmpInst::Predicate predicate) {
    llvm::Value *element = ir_.CreateExtractElement(src1_, uint64_t(j));
    return ir_.CreateICmp(predicate, src2_, ir_.CreateVectorSplat(n_, element));
  }

  /// Equal any: IntRes1[i] = OR over valid j of src2[i] == src1[j], for valid i; an invalid
  /// element on either side forces the comparison false.
  llvm::Value *equalAny() {
    llvm::Value *any = allFalse_;
    for (unsigned j = 0; j < n_; ++j)
      any = ir_.CreateOr(any, ir_.CreateSelect(valid1(j), row(j, llvm::CmpInst::ICMP_EQ),
                                               allFalse_));
    return ir_.CreateAnd(any, valid2_);
  }

  /// Ranges: IntRes1[i] = OR over pairs k of src1[2k] <= src2[i] <= src1[2k+1], for valid i
  /// and a pair whose both bounds are valid.
  llvm::Value *ranges() {
    using P = llvm::CmpInst::Predicate;
    P lower = control_.isSigned ? P::ICMP_SGE : P::ICMP_UGE;
    P upper = control_.isSigned ? P::ICMP_SLE : P::ICMP_ULE;
    llvm::Value *any = allFalse_;
    for (unsigned k = 0; 2 * k + 1 < n_; ++k) {
      llvm::Value *inside = ir_.CreateAnd(row(2 * k, lower), row(2 * k + 1, upper));
      any = ir_.CreateOr(any, ir_.CreateSelect(valid1(2 * k + 1), inside, allFalse_));
    }
    return ir_.CreateAnd(any, valid2_);
  }

  /// Equal each: IntRes1[i] = src1[i] == src2[i] when both are valid, true when both are
  /// invalid (past the end of both strings), false when only one is.
  llvm::Value *equalEach() {
    llvm::Value *equal = ir_.CreateICmpEQ(src1_, src2_);
    llvm::Value *bothValid = ir_.CreateAnd(valid1_, valid2_);
    llvm::Value *bothInvalid = ir_.CreateXor(ir_.CreateOr(valid1_, valid2_), allTrue_);
    return ir_.CreateSelect(bothValid, equal, bothInvalid);
  }

  /// Equal ordered (substring search): IntRes1[i] = AND over k < n - i of BoolRes[k][i+k],
  /// where an invalid src1[k] (the needle has ended) forces true and a valid src1[k] against
  /// an invalid src2[i+k] forces false.
  llvm::Value *equalOrdered() {
    llvm::Value *all = allTrue_;
    for (unsigned k = 0; k < n_; ++k) {
      llvm::Value *matches = ir_.CreateAnd(row(k, llvm::CmpInst::ICMP_EQ), valid2_);
      matches = ir_.CreateSelect(valid1(k), matches, allTrue_);
      // Element i takes BoolRes[k][i+k]; the terms with i + k >= n do not exist (true).
      llvm::SmallVector<int, 16> shift;
      for (unsigned i = 0; i < n_; ++i)
        shift.push_back(i + k < n_ ? int(i + k) : int(n_ + i));
      all = ir_.CreateAnd(all, ir_.CreateShuffleVector(matches, allTrue_, shift));
    }
    return all;
  }

  LiftBuilder &ir_;
  CompareControl control_;
  unsigned n_;
  llvm::Value *src1_;
  llvm::Value *src2_;
  llvm::Value *len1_ = nullptr;
  llvm::Value *valid1_ = nullptr;
  llvm::Value *valid2_ = nullptr;
  llvm::Constant *allTrue_ = nullptr;
  llvm::Constant *allFalse_ = nullptr;
};

/// pcmp{e,i}str{i,m} xmm1, xmm2/m128, imm8. `Explicit`: the lengths come from eax and edx;
/// otherwise each string ends at its first zero element. `Index`: ecx receives the lowest or
/// highest set index of IntRes2 (n when none); otherwise xmm0 receives IntRes2 as a bit mask
/// or, with imm8 bit 6, as a byte/word mask. Flags (SDM vol. 2, 4.1.6): CF = IntRes2 != 0,
/// ZF = src2 shorter than n, SF = src1 shorter than n, OF = IntRes2[0], AF = PF = 0.
template <bool Explicit, bool Index>
LiftStatus liftStringCompare(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  if (!instr.op(2).isImm())
    return ctx.unsupported();
  CompareControl control(instr.op(2).imm & 0xff);
  unsigned n = control.elements();
  ZydisRegister lengthReg1 = ZYDIS_REGISTER_NONE, lengthReg2 = ZYDIS_REGISTER_NONE;
  if (Explicit) {
    lengthReg1 = implicitRegister(instr, ZYDIS_REGISTER_RAX);
    lengthReg2 = implicitRegister(instr, ZYDIS_REGISTER_RDX);
    if (lengthReg1 == ZYDIS_REGISTER_NONE || lengthReg2 == ZYDIS_REGISTER_NONE)
      return ctx.unsupported();
  }

  llvm::Type *element = ctx.intType(control.words ? 16 : 8);
  llvm::Value *src1 = ctx.readVector(0, element);
  llvm::Value *src2 = ctx.readVector(1, element);
  llvm::Value *len1 = Explicit ? explicitLength(ctx, ctx.readReg(lengthReg1), n)
                               : implicitLength(ctx, src1, n);
  llvm::Value *len2 = Explicit ? explicitLength(ctx, ctx.readReg(lengthReg2), n)
                               : implicitLength(ctx, src2, n);

  StringCompare compare(ctx, control, src1, src2, len1, len2);
  llvm::Value *intRes2 = compare.result();
  llvm::Value *bits = ir.CreateBitCast(intRes2, ctx.intType(n));

  if (Index) {
    llvm::Value *wide = ir.CreateZExt(bits, ir.getInt32Ty());
    llvm::Value *index;
    if (control.mostSignificant) {
      llvm::Value *leading =
          ir.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, wide, ir.getFalse());
      index = ir.CreateSelect(ir.CreateICmpEQ(wide, ir.getInt32(0)), ir.getInt32(n),
                              ir.CreateSub(ir.getInt32(31), leading));
    } else {
      // The bit above the result makes an empty result count n.
      index = ir.CreateBinaryIntrinsic(llvm::Intrinsic::cttz,
                                       ir.CreateOr(wide, ir.getInt32(1u << n)), ir.getTrue());
    }
    ctx.writeReg(ZYDIS_REGISTER_ECX, index);
  } else {
    llvm::Value *mask = control.mostSignificant
                            ? ir.CreateSExt(intRes2, src1->getType())
                            : ir.CreateZExt(bits, ir.getInt128Ty());
    ctx.writeVectorReg(ZYDIS_REGISTER_XMM0, mask);
  }

  ctx.writeFlag(Var::CF, ir.CreateICmpNE(bits, ctx.constant(n, 0)));
  ctx.writeFlag(Var::ZF, ir.CreateICmpULT(len2, ir.getInt32(n)));
  ctx.writeFlag(Var::SF, ir.CreateICmpULT(len1, ir.getInt32(n)));
  ctx.writeFlag(Var::OF, ir.CreateExtractElement(intRes2, uint64_t(0)));
  ctx.writeFlag(Var::AF, ir.getFalse());
  ctx.writeFlag(Var::PF, ir.getFalse());
  return LiftStatus::Lifted;
}

} // namespace

void registerSimdString(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_PCMPISTRI, liftStringCompare<false, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPISTRI, liftStringCompare<false, true>);
  table.add(ZYDIS_MNEMONIC_PCMPISTRM, liftStringCompare<false, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPISTRM, liftStringCompare<false, false>);
  table.add(ZYDIS_MNEMONIC_PCMPESTRI, liftStringCompare<true, true>);
  table.add(ZYDIS_MNEMONIC_VPCMPESTRI, liftStringCompare<true, true>);
  table.add(ZYDIS_MNEMONIC_PCMPESTRM, liftStringCompare<true, false>);
  table.add(ZYDIS_MNEMONIC_VPCMPESTRM, liftStringCompare<true, false>);
}

} // namespace hoist
