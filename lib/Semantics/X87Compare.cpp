// x87 compares and classification (Zydis category X87_ALU): fcom, fucom, ficom and their
// popping forms into C3 C2 C0; fcomi and fucomi into ZF PF CF; ftst and fxam. The ordered
// and unordered forms differ only in the invalid-operation exception, which is not modelled.
#include "Semantics/X87Stack.h"

namespace hoist {
namespace {

struct CompareForm {
  ZydisMnemonic mnemonic;
  unsigned pops;
  bool integerSource;
  bool toFlags; // fcomi family: EFLAGS instead of the condition codes
};

constexpr CompareForm CompareForms[] = {
    {ZYDIS_MNEMONIC_FCOM, 0, false, false},   {ZYDIS_MNEMONIC_FCOMP, 1, false, false},
    {ZYDIS_MNEMONIC_FCOMPP, 2, false, false}, {ZYDIS_MNEMONIC_FUCOM, 0, false, false},
    {ZYDIS_MNEMONIC_FUCOMP, 1, false, false}, {ZYDIS_MNEMONIC_FUCOMPP, 2, false, false},
    {ZYDIS_MNEMONIC_FICOM, 0, true, false},   {ZYDIS_MNEMONIC_FICOMP, 1, true, false},
    {ZYDIS_MNEMONIC_FCOMI, 0, false, true},   {ZYDIS_MNEMONIC_FCOMIP, 1, false, true},
    {ZYDIS_MNEMONIC_FUCOMI, 0, false, true},  {ZYDIS_MNEMONIC_FUCOMIP, 1, false, true},
};

/// ST(0) against the source: the explicit operand, or ST(1) of fcompp (whose operands are
/// both hidden, ST(0) first).
LiftStatus liftCompare(LiftContext &ctx, const Instr &instr) {
  const CompareForm *form = nullptr;
  for (const CompareForm &candidate : CompareForms)
    if (candidate.mnemonic == instr.mnemonic)
      form = &candidate;
  if (!form)
    return ctx.unsupported();
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  const Operand &first = instr.op(0);
  unsigned sourceIndex =
      first.isReg() && first.reg == ZYDIS_REGISTER_ST0 && !first.explicitOperand ? 1 : 0;
  llvm::Value *top = stack.read(0);
  llvm::Value *source = form->integerSource ? readIntegerSource(ctx, sourceIndex)
                                            : readFpSource(ctx, stack, sourceIndex);
  llvm::Value *less = ir.CreateFCmpOLT(top, source);
  llvm::Value *equal = ir.CreateFCmpOEQ(top, source);
  llvm::Value *unordered = ir.CreateFCmpUNO(top, source);
  if (form->toFlags)
    stack.keepC1UnlessUnderflow();
  else
    stack.setCompareConditions(less, equal, unordered);
  for (unsigned i = 0; i < form->pops; ++i)
    stack.pop();
  stack.commit();
  if (form->toFlags) {
    // SDM vol. 2, FCOMI: ZF PF CF as C3 C2 C0 would be; OF, SF and AF cleared.
    ctx.writeFlag(Var::ZF, ir.CreateOr(equal, unordered));
    ctx.writeFlag(Var::PF, unordered);
    ctx.writeFlag(Var::CF, ir.CreateOr(less, unordered));
    ctx.writeFlag(Var::OF, ir.getFalse());
    ctx.writeFlag(Var::SF, ir.getFalse());
    ctx.writeFlag(Var::AF, ir.getFalse());
  }
  return LiftStatus::Lifted;
}

/// ftst: ST(0) against +0.0.
LiftStatus liftFtst(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *top = stack.read(0);
  llvm::Value *zero = fp80Constant(ctx, 0, 0);
  stack.setCompareConditions(ir.CreateFCmpOLT(top, zero), ir.CreateFCmpOEQ(top, zero),
                             ir.CreateFCmpUNO(top, zero));
  stack.commit();
  return LiftStatus::Lifted;
}

/// fxam: the class of ST(0) in C3 C2 C0 and its sign in C1 (SDM vol. 2, FXAM): unsupported
/// 000, NaN 001, normal 010, infinity 011, zero 100, empty 101, denormal 110.
LiftStatus liftFxam(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *bits = fp80Bits(ctx, stack.raw(0));
  llvm::Value *significand = ir.CreateTrunc(bits, ctx.intType(64));
  llvm::Value *exponent =
      ir.CreateAnd(ir.CreateTrunc(ir.CreateLShr(bits, 64), ctx.intType(16)), 0x7fff);
  llvm::Value *sign = ir.CreateTrunc(ir.CreateLShr(bits, 79), ir.getInt1Ty());
  llvm::Value *integerBit = ir.CreateICmpSLT(significand, ctx.constant(64, 0));
  llvm::Value *fractionZero = ir.CreateICmpEQ(ir.CreateShl(significand, 1), ctx.constant(64, 0));
  llvm::Value *maxExponent = ir.CreateICmpEQ(exponent, ctx.constant(16, 0x7fff));
  llvm::Value *zeroExponent = ir.CreateICmpEQ(exponent, ctx.constant(16, 0));
  llvm::Value *empty = stack.isEmpty(0);

  auto code = [&](unsigned c3c2c0) { return ctx.constant(8, c3c2c0); };
  llvm::Value *special = // exponent all ones: infinity, NaN, or unsupported without J bit
      ir.CreateSelect(integerBit, ir.CreateSelect(fractionZero, code(0b011), code(0b001)),
                      code(0b000));
  llvm::Value *small =
      ir.CreateSelect(ir.CreateICmpEQ(significand, ctx.constant(64, 0)), code(0b100), code(0b110));
  llvm::Value *finite = ir.CreateSelect(integerBit, code(0b010), code(0b000));
  llvm::Value *cls = ir.CreateSelect(
      empty, code(0b101),
      ir.CreateSelect(maxExponent, special, ir.CreateSelect(zeroExponent, small, finite)));
  auto bitOf = [&](unsigned n) { return ir.CreateTrunc(ir.CreateLShr(cls, n), ir.getInt1Ty()); };
  stack.setCondition(X87Condition::C3, bitOf(2));
  stack.setCondition(X87Condition::C2, bitOf(1));
  stack.setCondition(X87Condition::C0, bitOf(0));
  stack.setCondition(X87Condition::C1, sign);
  stack.commit();
  return LiftStatus::Lifted;
}

} // namespace

void registerX87Compare(SemanticTable &table) {
  for (const CompareForm &form : CompareForms)
    table.add(form.mnemonic, liftCompare);
  table.add(ZYDIS_MNEMONIC_FTST, liftFtst);
  table.add(ZYDIS_MNEMONIC_FXAM, liftFxam);
}

} // namespace hoist
