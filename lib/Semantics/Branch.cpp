// Control transfers (Zydis categories UNCOND_BR, COND_BR, CALL, RET): jmp, jcc, jrcxz,
// loop*, call, ret.
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

uint64_t relativeTarget(const Instr &instr) { return instr.next() + instr.op(0).imm; }

LiftStatus liftJmp(LiftContext &ctx, const Instr &instr) {
  if (instr.op(0).isImm())
    ctx.control().jump(relativeTarget(instr));
  else if (instr.op(0).isReg() || instr.op(0).isMem())
    ctx.control().jumpIndirect(ctx.readOperand(0, 64));
  else
    return ctx.unsupported();   // far jumps
  return LiftStatus::Lifted;
}

LiftStatus liftJcc(LiftContext &ctx, const Instr &instr) {
  llvm::Value *taken = ctx.condition(*conditionOf(instr.mnemonic));
  ctx.control().branch(taken, relativeTarget(instr), instr.next());
  return LiftStatus::Lifted;
}

/// jrcxz, jecxz: branch when the counter (as wide as the address size) is zero.
LiftStatus liftJumpIfCounterZero(LiftContext &ctx, const Instr &instr) {
  ZydisRegister counter = counterRegister(instr);
  llvm::Value *value = ctx.readReg(counter);
  llvm::Value *zero = ctx.ir.CreateICmpEQ(value, llvm::ConstantInt::get(value->getType(), 0));
  ctx.control().branch(zero, relativeTarget(instr), instr.next());
  return LiftStatus::Lifted;
}

/// loop, loope, loopne: decrement the counter (flags untouched), branch while it is not zero
/// (and ZF is set, or clear).
template <ZydisMnemonic Mnemonic>
LiftStatus liftLoop(LiftContext &ctx, const Instr &instr) {
  ZydisRegister counter = counterRegister(instr);
  llvm::Value *value = ctx.readReg(counter);
  llvm::Value *decremented = ctx.ir.CreateSub(value, llvm::ConstantInt::get(value->getType(), 1));
  llvm::Value *taken =
      ctx.ir.CreateICmpNE(decremented, llvm::ConstantInt::get(value->getType(), 0));
  if (Mnemonic == ZYDIS_MNEMONIC_LOOPE)
    taken = ctx.ir.CreateAnd(taken, ctx.readFlag(Var::ZF));
  else if (Mnemonic == ZYDIS_MNEMONIC_LOOPNE)
    taken = ctx.ir.CreateAnd(taken, ctx.ir.CreateNot(ctx.readFlag(Var::ZF)));
  ctx.writeReg(counter, decremented);
  ctx.control().branch(taken, relativeTarget(instr), instr.next());
  return LiftStatus::Lifted;
}

LiftStatus liftCall(LiftContext &ctx, const Instr &instr) {
  const Operand &target = instr.op(0);
  if (!target.isImm() && !target.isReg() && !target.isMem())
    return ctx.unsupported();   // far calls
  // Read the target before the push: `call [rsp]` uses the old rsp.
  llvm::Value *address = target.isImm() ? ctx.ir.getInt64(relativeTarget(instr))
                                        : ctx.readOperand(0, 64);
  ctx.push(ctx.ir.getInt64(instr.next()));
  ctx.control().call(address, instr.next());
  return LiftStatus::Lifted;
}

LiftStatus liftRet(LiftContext &ctx, const Instr &instr) {
  if (instr.mnemonic != ZYDIS_MNEMONIC_RET)
    return ctx.unsupported();   // far returns
  llvm::Value *target = ctx.pop(64);
  if (instr.explicitCount == 1 && instr.op(0).isImm())
    ctx.writeVar(Var::RSP, ctx.ir.CreateAdd(ctx.readVar(Var::RSP),
                                            ctx.ir.getInt64(instr.op(0).imm & 0xffff)));
  ctx.control().ret(target);
  return LiftStatus::Lifted;
}

} // namespace

void registerBranch(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_JMP, liftJmp);
  for (ZydisMnemonic jcc : conditionalMnemonics(ConditionalFamily::Jcc))
    table.add(jcc, liftJcc);
  table.add(ZYDIS_MNEMONIC_JRCXZ, liftJumpIfCounterZero);
  table.add(ZYDIS_MNEMONIC_JECXZ, liftJumpIfCounterZero);
  table.add(ZYDIS_MNEMONIC_LOOP, liftLoop<ZYDIS_MNEMONIC_LOOP>);
  table.add(ZYDIS_MNEMONIC_LOOPE, liftLoop<ZYDIS_MNEMONIC_LOOPE>);
  table.add(ZYDIS_MNEMONIC_LOOPNE, liftLoop<ZYDIS_MNEMONIC_LOOPNE>);
  table.add(ZYDIS_MNEMONIC_CALL, liftCall);
  table.add(ZYDIS_MNEMONIC_RET, liftRet);
}

} // namespace hoist
