// Stack (Zydis categories PUSH, POP and MISC's enter/leave): push, pop, enter, leave.
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

LiftStatus liftPush(LiftContext &ctx, const Instr &instr) {
  // The value is read first: `push rsp` pushes the value rsp had before the instruction.
  unsigned bits = instr.operandWidth;
  if (instr.op(0).isReg() && !gprSlice(instr.op(0).reg))
    return ctx.unsupported();   // push fs / push gs
  ctx.push(ctx.readOperand(0, bits));
  return LiftStatus::Lifted;
}

LiftStatus liftPop(LiftContext &ctx, const Instr &instr) {
  // rsp is incremented before a memory destination's address is computed (SDM vol. 2, POP),
  // and `pop rsp` leaves rsp holding the popped value.
  if (instr.op(0).isReg() && !gprSlice(instr.op(0).reg))
    return ctx.unsupported();
  ctx.writeOperand(0, ctx.pop(instr.operandWidth));
  return LiftStatus::Lifted;
}

/// enter size, level: push rbp; then, at level 1, push the new frame pointer; rbp = the new
/// frame pointer; rsp -= size. Levels of 2 and more also copy level-1 frame pointers from the
/// old frame (SDM vol. 2, ENTER), reads a fault may stop halfway; compilers never emit them,
/// so they stay unsupported rather than unchecked.
LiftStatus liftEnter(LiftContext &ctx, const Instr &instr) {
  unsigned level = instr.op(1).imm & 0x1f;
  if (instr.operandWidth != 64 || level > 1)
    return ctx.unsupported();
  ctx.push(ctx.readVar(Var::RBP));
  llvm::Value *frame = ctx.readVar(Var::RSP);
  if (level == 1)
    ctx.push(frame);
  ctx.writeVar(Var::RBP, frame);
  ctx.writeVar(Var::RSP, ctx.ir.CreateSub(ctx.readVar(Var::RSP),
                                          ctx.ir.getInt64(instr.op(0).imm & 0xffff)));
  return LiftStatus::Lifted;
}

/// leave: rsp = rbp; rbp = pop.
LiftStatus liftLeave(LiftContext &ctx, const Instr &instr) {
  if (instr.operandWidth != 64)
    return ctx.unsupported();   // the 16-bit form pops bp only
  ctx.writeVar(Var::RSP, ctx.readVar(Var::RBP));
  ctx.writeVar(Var::RBP, ctx.pop(64));
  return LiftStatus::Lifted;
}

} // namespace

void registerStack(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_PUSH, liftPush);
  table.add(ZYDIS_MNEMONIC_POP, liftPop);
  table.add(ZYDIS_MNEMONIC_ENTER, liftEnter);
  table.add(ZYDIS_MNEMONIC_LEAVE, liftLeave);
}

} // namespace hoist
