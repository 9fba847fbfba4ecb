// Bitwise logic (Zydis category LOGICAL): and, or, xor, test, not.
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

enum class LogicOp { And, Or, Xor };

template <LogicOp Op, bool WritesResult>
LiftStatus liftLogic(LiftContext &ctx, const Instr &instr) {
  unsigned bits = ctx.operandBits(0);
  // A locked one reads its source first, for the atomicrmw; the plain order stays as it was.
  bool locked = WritesResult && ctx.updatesAtomically(0);
  llvm::Value *lhs = locked ? nullptr : ctx.readOperand(0);
  llvm::Value *rhs = ctx.readOperand(1, bits);
  if (locked)
    lhs = ctx.readOperandForUpdate(0, Op == LogicOp::And  ? llvm::AtomicRMWInst::And
                                      : Op == LogicOp::Or ? llvm::AtomicRMWInst::Or
                                                          : llvm::AtomicRMWInst::Xor,
                                   rhs);
  llvm::Value *result = Op == LogicOp::And  ? ctx.ir.CreateAnd(lhs, rhs)
                        : Op == LogicOp::Or ? ctx.ir.CreateOr(lhs, rhs)
                                            : ctx.ir.CreateXor(lhs, rhs);
  if (WritesResult)
    ctx.writeOperand(0, result);
  ctx.writeFlags(FlagOp::Logic, lhs, rhs, result);
  return LiftStatus::Lifted;
}

LiftStatus liftNot(LiftContext &ctx, const Instr &instr) {
  llvm::Value *allOnes = llvm::ConstantInt::getAllOnesValue(ctx.intType(ctx.operandBits(0)));
  llvm::Value *value = ctx.readOperandForUpdate(0, llvm::AtomicRMWInst::Xor, allOnes);
  ctx.writeOperand(0, ctx.ir.CreateNot(value));   // no flags change
  return LiftStatus::Lifted;
}

} // namespace

void registerLogical(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_AND, liftLogic<LogicOp::And, true>);
  table.add(ZYDIS_MNEMONIC_OR, liftLogic<LogicOp::Or, true>);
  table.add(ZYDIS_MNEMONIC_XOR, liftLogic<LogicOp::Xor, true>);
  table.add(ZYDIS_MNEMONIC_TEST, liftLogic<LogicOp::And, false>);
  table.add(ZYDIS_MNEMONIC_NOT, liftNot);
}

} // namespace hoist
