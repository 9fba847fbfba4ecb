// The x87 stack of one instruction and the extended-precision helpers (see X87Stack.h).
#include "Semantics/X87Stack.h"

#include <llvm/ADT/APFloat.h>

namespace hoist {
namespace {

constexpr uint16_t TopMask = 0x3800; // status word bits 11..13
constexpr unsigned TopShift = 11;

} // namespace

X87Stack::X87Stack(LiftContext &ctx) : ctx_(ctx) {
  for (unsigned i = 0; i < 8; ++i)
    st_[i] = ctx.readVar(stVar(i));
  sw_ = ctx.readVar(Var::FPU_SW);
  tw_ = ctx.readVar(Var::FPU_TW);
  underflow_ = ctx.ir.getFalse();
  overflow_ = ctx.ir.getFalse();
}

llvm::Value *X87Stack::top() { return ctx_.ir.CreateAnd(ctx_.ir.CreateLShr(sw_, TopShift), 7); }

llvm::Value *X87Stack::tagBit(unsigned i) {
  llvm::Value *physical = ctx_.ir.CreateAnd(ctx_.ir.CreateAdd(top(), ctx_.constant(16, i)), 7);
  return ctx_.ir.CreateShl(ctx_.constant(16, 1), physical);
}

llvm::Value *X87Stack::isEmpty(unsigned i) {
  return ctx_.ir.CreateICmpEQ(ctx_.ir.CreateAnd(tw_, tagBit(i)), ctx_.constant(16, 0));
}

llvm::Value *X87Stack::read(unsigned i) {
  llvm::Value *empty = isEmpty(i);
  underflow_ = ctx_.ir.CreateOr(underflow_, empty);
  return ctx_.ir.CreateSelect(empty, x87Indefinite(ctx_), st_[i]);
}

void X87Stack::write(unsigned i, llvm::Value *value) {
  st_[i] = value;
  tw_ = ctx_.ir.CreateOr(tw_, tagBit(i));
}

void X87Stack::writeIf(llvm::Value *condition, unsigned i, llvm::Value *value) {
  st_[i] = ctx_.ir.CreateSelect(condition, value, st_[i]);
  tw_ = ctx_.ir.CreateSelect(condition, ctx_.ir.CreateOr(tw_, tagBit(i)), tw_);
}

void X87Stack::push(llvm::Value *value) {
  rotate(-1);
  llvm::Value *full = ctx_.ir.CreateNot(isEmpty(0));
  overflow_ = ctx_.ir.CreateOr(overflow_, full);
  write(0, ctx_.ir.CreateSelect(full, x87Indefinite(ctx_), value));
}

void X87Stack::pop() {
  free(0);
  rotate(1);
}

void X87Stack::rotate(int delta) {
  std::array<llvm::Value *, 8> renamed;
  for (unsigned i = 0; i < 8; ++i)
    renamed[i] = st_[(i + 8 + delta) & 7];
  st_ = renamed;
  llvm::Value *newTop = ctx_.ir.CreateAnd(ctx_.ir.CreateAdd(top(), ctx_.constant(16, delta)), 7);
  sw_ = ctx_.ir.CreateOr(ctx_.ir.CreateAnd(sw_, ctx_.constant(16, ~TopMask)),
                         ctx_.ir.CreateShl(newTop, TopShift));
}

void X87Stack::setTop(llvm::Value *newTop) {
  llvm::Value *delta = ctx_.ir.CreateAnd(ctx_.ir.CreateSub(newTop, top()), 7);
  std::array<llvm::Value *, 8> renamed;
  for (unsigned i = 0; i < 8; ++i) {
    renamed[i] = st_[i];
    for (unsigned d = 1; d < 8; ++d)
      renamed[i] = ctx_.ir.CreateSelect(ctx_.ir.CreateICmpEQ(delta, ctx_.constant(16, d)),
                                        st_[(i + d) & 7], renamed[i]);
  }
  st_ = renamed;
  sw_ = ctx_.ir.CreateOr(ctx_.ir.CreateAnd(sw_, ctx_.constant(16, ~TopMask)),
                         ctx_.ir.CreateShl(newTop, TopShift));
}

void X87Stack::free(unsigned i) { tw_ = ctx_.ir.CreateAnd(tw_, ctx_.ir.CreateNot(tagBit(i))); }

void X87Stack::setCondition(X87Condition bit, llvm::Value *value) {
  unsigned shift = static_cast<unsigned>(bit);
  if (bit == X87Condition::C1)
    c1Set_ = true;
  llvm::Value *cleared = ctx_.ir.CreateAnd(sw_, ctx_.constant(16, ~(1u << shift)));
  sw_ = ctx_.ir.CreateOr(cleared,
                         ctx_.ir.CreateShl(ctx_.ir.CreateZExt(value, ctx_.intType(16)), shift));
}

llvm::Value *X87Stack::condition(X87Condition bit) {
  return ctx_.ir.CreateTrunc(ctx_.ir.CreateLShr(sw_, static_cast<unsigned>(bit)),
                             ctx_.ir.getInt1Ty());
}

void X87Stack::keepC1UnlessUnderflow() {
  setCondition(X87Condition::C1,
               ctx_.ir.CreateAnd(condition(X87Condition::C1), ctx_.ir.CreateNot(underflow_)));
}

void X87Stack::setCompareConditions(llvm::Value *less, llvm::Value *equal, llvm::Value *unordered) {
  setCondition(X87Condition::C0, ctx_.ir.CreateOr(less, unordered));
  setCondition(X87Condition::C2, unordered);
  setCondition(X87Condition::C3, ctx_.ir.CreateOr(equal, unordered));
}

llvm::Value *X87Stack::roundingControl() {
  return ctx_.ir.CreateAnd(ctx_.ir.CreateLShr(controlWord(), 10), 3);
}

void X87Stack::commit() {
  if (!c1Set_)
    setCondition(X87Condition::C1, overflow_);
  for (unsigned i = 0; i < 8; ++i)
    ctx_.writeVar(stVar(i), st_[i]);
  ctx_.writeVar(Var::FPU_SW, sw_);
  ctx_.writeVar(Var::FPU_TW, tw_);
}

llvm::Type *fp80Type(LiftContext &ctx) { return llvm::Type::getX86_FP80Ty(ctx.ir.getContext()); }

llvm::Value *fp80Constant(LiftContext &ctx, uint16_t signExponent, uint64_t significand) {
  uint64_t words[] = {significand, signExponent};
  llvm::APInt bits(80, words);
  return llvm::ConstantFP::get(fp80Type(ctx),
                               llvm::APFloat(llvm::APFloat::x87DoubleExtended(), bits));
}

llvm::Value *x87Indefinite(LiftContext &ctx) {
  return fp80Constant(ctx, 0xffff, 0xc000000000000000);
}

llvm::Value *fp80Bits(LiftContext &ctx, llvm::Value *value) {
  return ctx.ir.CreateBitCast(value, ctx.intType(80));
}

llvm::Value *fp80FromBits(LiftContext &ctx, llvm::Value *bits) {
  return ctx.ir.CreateBitCast(bits, fp80Type(ctx));
}

llvm::Value *quietNaN(LiftContext &ctx, llvm::Value *value) {
  llvm::Value *quietBit = llvm::ConstantInt::get(ctx.intType(80), llvm::APInt(80, 1).shl(62));
  return fp80FromBits(ctx, ctx.ir.CreateOr(fp80Bits(ctx, value), quietBit));
}

llvm::Value *propagateNaN(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *aBits = fp80Bits(ctx, a), *bBits = fp80Bits(ctx, b);
  llvm::Value *aSignificand = ir.CreateTrunc(aBits, ctx.intType(64));
  llvm::Value *bSignificand = ir.CreateTrunc(bBits, ctx.intType(64));
  auto bit = [&](llvm::Value *bits, unsigned n) {
    return ir.CreateTrunc(ir.CreateLShr(bits, n), ir.getInt1Ty());
  };
  llvm::Value *aQuiet = bit(aSignificand, 62), *bQuiet = bit(bSignificand, 62);
  // Two NaNs of one kind: the larger significand; equal significands give the positive one
  // (checked on the CPU; the SDM does not say).
  llvm::Value *aLarger = ir.CreateOr(
      ir.CreateICmpUGT(aSignificand, bSignificand),
      ir.CreateAnd(ir.CreateICmpEQ(aSignificand, bSignificand), ir.CreateNot(bit(aBits, 79))));
  llvm::Value *bothPickA = ir.CreateSelect(ir.CreateICmpEQ(aQuiet, bQuiet), aLarger, aQuiet);
  llvm::Value *pickA =
      ir.CreateAnd(isNaN(ctx, a), ir.CreateOr(ir.CreateNot(isNaN(ctx, b)), bothPickA));
  return quietNaN(ctx, ir.CreateSelect(pickA, a, b));
}

namespace {

/// The layout of a binary interchange format narrower than extended.
struct NarrowFormat {
  unsigned bits, fractionBits;
};

NarrowFormat narrowFormat(llvm::Type *type) {
  return type->isFloatTy() ? NarrowFormat{32, 23} : NarrowFormat{64, 52};
}

} // namespace

llvm::Value *extendToFp80(LiftContext &ctx, llvm::Value *value) {
  LiftBuilder &ir = ctx.ir;
  if (value->getType()->isX86_FP80Ty())
    return value;
  NarrowFormat format = narrowFormat(value->getType());
  llvm::IntegerType *wide = ctx.intType(80);
  llvm::Value *bits = ir.CreateZExt(ir.CreateBitCast(value, ctx.intType(format.bits)), wide);
  // A NaN: sign, exponent all ones, the integer bit, and the fraction moved to the top of
  // the significand, where its quiet bit lands on bit 62 (SDM vol. 1, 4.8.3.4).
  llvm::Value *sign = ir.CreateShl(ir.CreateLShr(bits, format.bits - 1), 79);
  llvm::APInt fractionMask = llvm::APInt::getLowBitsSet(80, format.fractionBits);
  llvm::Value *fraction = ir.CreateShl(
      ir.CreateAnd(bits, llvm::ConstantInt::get(wide, fractionMask)), 63 - format.fractionBits);
  uint64_t nanWords[] = {0x8000000000000000, 0x7fff};
  llvm::APInt nanBase(80, nanWords);
  llvm::Value *nan =
      ir.CreateOr(ir.CreateOr(sign, fraction), llvm::ConstantInt::get(wide, nanBase));
  return ir.CreateSelect(isNaN(ctx, value), fp80FromBits(ctx, nan),
                         ir.CreateFPExt(value, fp80Type(ctx)));
}

llvm::Value *truncateFromFp80(LiftContext &ctx, llvm::Value *value, llvm::Type *type) {
  LiftBuilder &ir = ctx.ir;
  NarrowFormat format = narrowFormat(type);
  llvm::IntegerType *narrow = ctx.intType(format.bits);
  llvm::Value *bits = fp80Bits(ctx, value);
  llvm::Value *sign =
      ir.CreateShl(ir.CreateTrunc(ir.CreateLShr(bits, 79), narrow), format.bits - 1);
  llvm::Value *fraction =
      ir.CreateTrunc(ir.CreateLShr(ir.CreateAnd(ir.CreateTrunc(bits, ctx.intType(64)),
                                                ctx.constant(64, 0x7fffffffffffffff)),
                                   63 - format.fractionBits),
                     narrow);
  uint64_t exponentAndQuiet = ((uint64_t(1) << (format.bits - format.fractionBits)) - 1)
                              << (format.fractionBits - 1);
  llvm::Value *nan =
      ir.CreateOr(ir.CreateOr(sign, fraction), ctx.constant(format.bits, exponentAndQuiet));
  return ir.CreateSelect(isNaN(ctx, value), ir.CreateBitCast(nan, type),
                         ir.CreateFPTrunc(value, type));
}

unsigned stIndex(const Operand &operand) {
  return static_cast<unsigned>(operand.reg - ZYDIS_REGISTER_ST0);
}

llvm::Value *readFpSource(LiftContext &ctx, X87Stack &stack, unsigned index) {
  const Operand &operand = ctx.instr().op(index);
  if (operand.isReg())
    return stack.read(stIndex(operand));
  llvm::Value *address = ctx.effectiveAddress(operand);
  switch (operand.bits) {
  case 32:
    return extendToFp80(ctx, ctx.load(address, ctx.ir.getFloatTy()));
  case 64:
    return extendToFp80(ctx, ctx.load(address, ctx.ir.getDoubleTy()));
  default:
    return fp80FromBits(ctx, ctx.load(address, ctx.intType(80)));
  }
}

llvm::Value *readIntegerSource(LiftContext &ctx, unsigned index) {
  return ctx.ir.CreateSIToFP(ctx.readOperand(index), fp80Type(ctx));
}

llvm::Value *roundToIntegral(LiftContext &ctx, llvm::Value *value, llvm::Value *rc) {
  llvm::Value *rounded = fp::roundIntegral(ctx, value, rc);
  return ctx.ir.CreateSelect(isNaN(ctx, value), quietNaN(ctx, value), rounded);
}

} // namespace hoist
