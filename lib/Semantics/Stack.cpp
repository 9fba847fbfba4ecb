// Stack (Zydis categories PUSH and POP): push, pop.
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

} // namespace

void registerStack(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_PUSH, liftPush);
  table.add(ZYDIS_MNEMONIC_POP, liftPop);
}

} // namespace hoist
