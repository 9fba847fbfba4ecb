// Conditional moves and sets (Zydis categories CMOV and SETCC).
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

LiftStatus liftSetcc(LiftContext &ctx, const Instr &instr) {
  llvm::Value *taken = ctx.condition(*conditionOf(instr.mnemonic));
  ctx.writeOperand(0, ctx.ir.CreateZExt(taken, ctx.ir.getInt8Ty()));
  return LiftStatus::Lifted;
}

LiftStatus liftCmovcc(LiftContext &ctx, const Instr &instr) {
  // The source is read whatever the condition (a memory source may fault even when not
  // moved), and a 32-bit destination is zero-extended even when the condition is false.
  llvm::Value *taken = ctx.condition(*conditionOf(instr.mnemonic));
  llvm::Value *source = ctx.readOperand(1);
  llvm::Value *old = ctx.readOperand(0);
  ctx.writeOperand(0, ctx.ir.CreateSelect(taken, source, old));
  return LiftStatus::Lifted;
}

} // namespace

void registerConditional(SemanticTable &table) {
  for (ZydisMnemonic setcc : conditionalMnemonics(ConditionalFamily::Setcc))
    table.add(setcc, liftSetcc);
  for (ZydisMnemonic cmovcc : conditionalMnemonics(ConditionalFamily::Cmovcc))
    table.add(cmovcc, liftCmovcc);
}

} // namespace hoist
