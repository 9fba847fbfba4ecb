// x87 floating point (Zydis categories X87_ALU and FCMOV): loads, stores, constants, stack
// management, sign operations, conditional moves and the control and status words. The
// arithmetic is in X87Arithmetic.cpp, the compares in X87Compare.cpp.
//
// The stack model. Var::ST0..ST7 hold ST(0)..ST(7) relative to the top of the stack as
// x86_fp80, the way fxsave stores them. A push or pop does not move values between
// registers; it renames the variables: after a push ST(i) is the old ST(i-1), after a pop the
// old ST(i+1), rotating, so the physical contents stay where the CPU keeps them (after a pop
// the popped value is ST(7), empty). Var::FPU_SW holds TOP in bits 11..13 and C0 C1 C2 C3 in
// bits 8, 9, 10, 14; Var::FPU_TW is the abridged tag word, bit j set when physical register j
// = (TOP + i) mod 8 of ST(i) is valid. X87Stack (X87Stack.h) reads all of this once per
// instruction, lets the semantic read, write, push and pop, and writes it back.
//
// Stack faults get the CPU's masked response (SDM vol. 1, 8.5.1.1): an empty source reads as
// the QNaN indefinite and clears C1; a push into a valid register writes the indefinite and
// sets C1. The exception flags themselves (IE, SF, ..., and C1 as the round-up indicator) are
// not modelled (docs/DESIGN.md).
//
// Arithmetic runs as LLVM x86_fp80 operations, which the host computes with its own control
// word: round to nearest at 64-bit precision, the default 0x037F. Precision control other
// than 64 bits and rounding other than to nearest are not modelled for arithmetic; only the
// conversions to integer (fist, fistp) and frndint honour CW.RC, by selects.
//
// Not lifted: the transcendentals (f2xm1, fyl2x, fyl2xp1, fptan, fpatan, fsin, fcos,
// fsincos), fbld/fbstp, and the environment instructions (fldenv, fnstenv, fnsave, frstor).
#include "Semantics/X87Stack.h"

namespace hoist {
namespace {

/// fld m32/m64/m80/st(i): pushes the source; m32 and m64 convert exactly, an SNaN among them
/// becoming quiet; m80 and st(i) are copied as they are (SDM vol. 2, FLD).
LiftStatus liftFld(LiftContext &ctx, const Instr &instr) {
  X87Stack stack(ctx);
  llvm::Value *value = readFpSource(ctx, stack, 0);
  const Operand &source = instr.op(0);
  if (source.isMem() && source.bits != 80)
    value = ctx.ir.CreateSelect(isNaN(ctx, value), quietNaN(ctx, value), value);
  stack.push(value);
  stack.commit();
  return LiftStatus::Lifted;
}

/// fild m16/m32/m64: every integer of these widths is exact in extended precision.
LiftStatus liftFild(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  X87Stack stack(ctx);
  stack.push(readIntegerSource(ctx, 0));
  stack.commit();
  return LiftStatus::Lifted;
}

struct X87ConstantForm {
  ZydisMnemonic mnemonic;
  uint16_t signExponent;
  uint64_t significand;
};

/// The constants as the CPU loads them with RC to nearest (read on the CPU): the 66-bit
/// internal values rounded to 64 bits (SDM vol. 1, 8.3.8).
constexpr X87ConstantForm X87Constants[] = {
    {ZYDIS_MNEMONIC_FLDZ, 0x0000, 0},
    {ZYDIS_MNEMONIC_FLD1, 0x3fff, 0x8000000000000000},
    {ZYDIS_MNEMONIC_FLDPI, 0x4000, 0xc90fdaa22168c235},
    {ZYDIS_MNEMONIC_FLDL2E, 0x3fff, 0xb8aa3b295c17f0bc},
    {ZYDIS_MNEMONIC_FLDL2T, 0x4000, 0xd49a784bcd1b8afe},
    {ZYDIS_MNEMONIC_FLDLG2, 0x3ffd, 0x9a209a84fbcff799},
    {ZYDIS_MNEMONIC_FLDLN2, 0x3ffe, 0xb17217f7d1cf79ac},
};

LiftStatus liftFldConstant(LiftContext &ctx, const Instr &instr) {
  for (const X87ConstantForm &form : X87Constants)
    if (form.mnemonic == instr.mnemonic) {
      X87Stack stack(ctx);
      stack.push(fp80Constant(ctx, form.signExponent, form.significand));
      stack.commit();
      return LiftStatus::Lifted;
    }
  return ctx.unsupported();
}

/// fst/fstp m32/m64/m80/st(i): ST(0) rounded to the memory format (m32, m64), or copied.
/// fstpnce st(i) is the alias encoding D9 D8+i of fstp st(i), except that from an empty
/// ST(0) it stores nothing and only pops (seen on the CPU).
LiftStatus liftFst(LiftContext &ctx, const Instr &instr) {
  X87Stack stack(ctx);
  llvm::Value *empty = stack.isEmpty(0);
  llvm::Value *value = stack.read(0);
  const Operand &destination = instr.op(0);
  if (instr.mnemonic == ZYDIS_MNEMONIC_FSTPNCE) {
    stack.writeIf(ctx.ir.CreateNot(empty), stIndex(destination), value);
  } else if (destination.isReg()) {
    stack.write(stIndex(destination), value);
  } else {
    llvm::Value *stored = destination.bits == 32 ? truncateFromFp80(ctx, value, ctx.ir.getFloatTy())
                          : destination.bits == 64
                              ? truncateFromFp80(ctx, value, ctx.ir.getDoubleTy())
                              : fp80Bits(ctx, value);
    ctx.store(ctx.effectiveAddress(destination), stored);
  }
  if (instr.mnemonic != ZYDIS_MNEMONIC_FST)
    stack.pop();
  stack.commit();
  return LiftStatus::Lifted;
}

/// fist/fistp/fisttp m16/m32/m64: ST(0) rounded by CW.RC (fisttp: toward zero); a NaN, an
/// empty ST(0) or a value out of range stores the integer indefinite, the lowest integer
/// (SDM vol. 1, 4.8.3.7; masked invalid operation).
LiftStatus liftFist(LiftContext &ctx, const Instr &instr) {
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *value = stack.read(0);
  unsigned bits = instr.op(0).bits;
  llvm::Value *rc =
      instr.mnemonic == ZYDIS_MNEMONIC_FISTTP ? ctx.constant(16, 3) : stack.roundingControl();
  llvm::Value *rounded = roundToIntegral(ctx, value, rc);
  uint64_t lowest = uint64_t(1) << (bits - 1);
  // -2^(n-1) <= rounded < 2^(n-1): both bounds are exact in extended precision.
  llvm::Value *low = fp80Constant(ctx, uint16_t(0x8000 | (0x3fff + bits - 1)), 1ull << 63);
  llvm::Value *high = fp80Constant(ctx, uint16_t(0x3fff + bits - 1), 1ull << 63);
  llvm::Value *inRange =
      ir.CreateAnd(ir.CreateFCmpOGE(rounded, low), ir.CreateFCmpOLT(rounded, high));
  llvm::Value *integer = ir.CreateFPToSI(rounded, ctx.intType(bits));
  // An empty ST(0) reads as the indefinite, a NaN, and so is out of range too.
  llvm::Value *stored = ir.CreateSelect(inRange, integer, ctx.constant(bits, lowest));
  ctx.writeOperand(0, stored);
  if (instr.mnemonic != ZYDIS_MNEMONIC_FIST)
    stack.pop();
  stack.commit();
  return LiftStatus::Lifted;
}

/// fxch st(i): swaps ST(0) and ST(i); an empty one is swapped as the indefinite.
LiftStatus liftFxch(LiftContext &ctx, const Instr &instr) {
  X87Stack stack(ctx);
  unsigned other = stIndex(instr.op(0));
  llvm::Value *top = stack.read(0);
  llvm::Value *value = stack.read(other);
  stack.write(0, value);
  stack.write(other, top);
  stack.commit();
  return LiftStatus::Lifted;
}

/// fchs and fabs: the sign bit of ST(0) flipped or cleared; NaNs too, with no exception.
LiftStatus liftSignOperation(LiftContext &ctx, const Instr &instr) {
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *empty = stack.isEmpty(0);
  llvm::Value *bits = fp80Bits(ctx, stack.read(0));
  llvm::APInt signBit = llvm::APInt::getOneBitSet(80, 79);
  llvm::Value *result = instr.mnemonic == ZYDIS_MNEMONIC_FCHS
                            ? ir.CreateXor(bits, llvm::ConstantInt::get(bits->getType(), signBit))
                            : ir.CreateAnd(bits, llvm::ConstantInt::get(bits->getType(), ~signBit));
  stack.write(0, ir.CreateSelect(empty, x87Indefinite(ctx), fp80FromBits(ctx, result)));
  stack.commit();
  return LiftStatus::Lifted;
}

/// ffree st(i): tags it empty; TOP and the value stay. ffreep (DF C0+i, undocumented but
/// decoded by every CPU) pops as well.
LiftStatus liftFfree(LiftContext &ctx, const Instr &instr) {
  X87Stack stack(ctx);
  stack.free(stIndex(instr.op(0)));
  if (instr.mnemonic == ZYDIS_MNEMONIC_FFREEP)
    stack.pop();
  stack.commit();
  return LiftStatus::Lifted;
}

/// fincstp and fdecstp: TOP +- 1, the tags as they are (SDM vol. 2, FINCSTP).
LiftStatus liftStackPointer(LiftContext &ctx, const Instr &instr) {
  X87Stack stack(ctx);
  stack.rotate(instr.mnemonic == ZYDIS_MNEMONIC_FINCSTP ? 1 : -1);
  stack.commit();
  return LiftStatus::Lifted;
}

struct FcmovForm {
  ZydisMnemonic mnemonic;
  Condition condition;
};

constexpr FcmovForm FcmovForms[] = {
    {ZYDIS_MNEMONIC_FCMOVB, Condition::B},   {ZYDIS_MNEMONIC_FCMOVE, Condition::E},
    {ZYDIS_MNEMONIC_FCMOVBE, Condition::BE}, {ZYDIS_MNEMONIC_FCMOVU, Condition::P},
    {ZYDIS_MNEMONIC_FCMOVNB, Condition::AE}, {ZYDIS_MNEMONIC_FCMOVNE, Condition::NE},
    {ZYDIS_MNEMONIC_FCMOVNBE, Condition::A}, {ZYDIS_MNEMONIC_FCMOVNU, Condition::NP},
};

/// fcmovcc st(0), st(i): ST(0) = ST(i) when the condition holds.
LiftStatus liftFcmov(LiftContext &ctx, const Instr &instr) {
  for (const FcmovForm &form : FcmovForms)
    if (form.mnemonic == instr.mnemonic) {
      X87Stack stack(ctx);
      llvm::Value *condition = ctx.condition(form.condition);
      llvm::Value *top = stack.read(0);
      llvm::Value *source = stack.read(stIndex(instr.op(1)));
      stack.write(0, ctx.ir.CreateSelect(stack.underflow(), x87Indefinite(ctx),
                                         ctx.ir.CreateSelect(condition, source, top)));
      stack.keepC1UnlessUnderflow();
      stack.commit();
      return LiftStatus::Lifted;
    }
  return ctx.unsupported();
}

LiftStatus liftFnstsw(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  ctx.writeOperand(0, ctx.readVar(Var::FPU_SW));
  return LiftStatus::Lifted;
}

LiftStatus liftFnstcw(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  ctx.writeOperand(0, ctx.readVar(Var::FPU_CW));
  return LiftStatus::Lifted;
}

/// fldcw m16. The states have no exception flags pending, so unmasking one cannot set ES.
LiftStatus liftFldcw(LiftContext &ctx, const Instr &instr) {
  ctx.writeVar(Var::FPU_CW, x87ControlWordAsLoaded(ctx, ctx.readOperand(0)));
  noteFpEnvironment(ctx, instr, "x87 arithmetic after a new control word is lifted for round to "
                                "nearest and 64-bit precision; only fist, fistp and frndint "
                                "follow its rounding control");
  return LiftStatus::Lifted;
}

/// fninit: CW 0x037F, SW 0, all registers empty. The physical registers keep their values,
/// so with TOP reset to 0 the stack-relative ST(i) are renamed.
LiftStatus liftFninit(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  X87Stack stack(ctx);
  stack.setTop(ctx.constant(16, 0));
  stack.commit();
  ctx.writeVar(Var::FPU_CW, ctx.constant(16, 0x037f));
  ctx.writeVar(Var::FPU_SW, ctx.constant(16, 0));
  ctx.writeVar(Var::FPU_TW, ctx.constant(16, 0));
  return LiftStatus::Lifted;
}

/// fnclex: clears the exception flags, SF, ES and B (SW bits 0..7 and 15).
LiftStatus liftFnclex(LiftContext &ctx, const Instr &instr) {
  (void)instr;
  ctx.writeVar(Var::FPU_SW, ctx.ir.CreateAnd(ctx.readVar(Var::FPU_SW), 0x7f00));
  return LiftStatus::Lifted;
}

/// fwait and fnop: no exception is ever pending unmasked in the modelled state. feni,
/// fdisi and fsetpm are 8087/80287 controls that later CPUs execute as nops.
LiftStatus liftX87Nop(LiftContext &ctx, const Instr &instr) {
  (void)ctx;
  (void)instr;
  return LiftStatus::Lifted;
}

} // namespace

llvm::Value *x87ControlWordAsLoaded(LiftContext &ctx, llvm::Value *stored) {
  return ctx.ir.CreateOr(ctx.ir.CreateAnd(stored, 0x1f3f), 0x0040);
}

void registerX87(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_FLD, liftFld);
  table.add(ZYDIS_MNEMONIC_FILD, liftFild);
  for (const X87ConstantForm &form : X87Constants)
    table.add(form.mnemonic, liftFldConstant);
  table.add(ZYDIS_MNEMONIC_FST, liftFst);
  table.add(ZYDIS_MNEMONIC_FSTP, liftFst);
  table.add(ZYDIS_MNEMONIC_FSTPNCE, liftFst);
  for (ZydisMnemonic mnemonic : {ZYDIS_MNEMONIC_FIST, ZYDIS_MNEMONIC_FISTP, ZYDIS_MNEMONIC_FISTTP})
    table.add(mnemonic, liftFist);
  table.add(ZYDIS_MNEMONIC_FXCH, liftFxch);
  table.add(ZYDIS_MNEMONIC_FCHS, liftSignOperation);
  table.add(ZYDIS_MNEMONIC_FABS, liftSignOperation);
  table.add(ZYDIS_MNEMONIC_FFREE, liftFfree);
  table.add(ZYDIS_MNEMONIC_FFREEP, liftFfree);
  table.add(ZYDIS_MNEMONIC_FINCSTP, liftStackPointer);
  table.add(ZYDIS_MNEMONIC_FDECSTP, liftStackPointer);
  for (const FcmovForm &form : FcmovForms)
    table.add(form.mnemonic, liftFcmov);
  table.add(ZYDIS_MNEMONIC_FNSTSW, liftFnstsw);
  table.add(ZYDIS_MNEMONIC_FNSTCW, liftFnstcw);
  table.add(ZYDIS_MNEMONIC_FLDCW, liftFldcw);
  table.add(ZYDIS_MNEMONIC_FNINIT, liftFninit);
  table.add(ZYDIS_MNEMONIC_FNCLEX, liftFnclex);
  table.add(ZYDIS_MNEMONIC_FWAIT, liftX87Nop);
  for (ZydisMnemonic mnemonic : {ZYDIS_MNEMONIC_FNOP, ZYDIS_MNEMONIC_FENI8087_NOP,
                                 ZYDIS_MNEMONIC_FDISI8087_NOP, ZYDIS_MNEMONIC_FSETPM287_NOP})
    table.add(mnemonic, liftX87Nop);
  registerX87Arithmetic(table);
  registerX87Transcendental(table);
  registerX87Compare(table);
}

} // namespace hoist
