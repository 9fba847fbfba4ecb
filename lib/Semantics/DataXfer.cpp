// Data movement (Zydis category DATAXFER and MISC's lea): mov, movzx, movsx, movsxd, lea,
// xchg, movbe.
#include "Semantics/Semantics.h"
#include "Semantics/SegmentMove.h"

namespace hoist {
namespace {

bool isGprOrNotRegister(const Operand &operand) {
  return !operand.isReg() || gprSlice(operand.reg);
}

LiftStatus liftMov(LiftContext &ctx, const Instr &instr) {
  for (unsigned i : {0u, 1u})
    if (instr.op(i).isReg() && selectorField(instr.op(i).reg))
      return liftSegmentMove(ctx, instr);
  if (!isGprOrNotRegister(instr.op(0)) || !isGprOrNotRegister(instr.op(1)))
    return ctx.unsupported();   // control and debug registers
  ctx.writeOperand(0, ctx.readOperand(1, ctx.operandBits(0)));
  return LiftStatus::Lifted;
}

template <bool IsSigned>
LiftStatus liftExtend(LiftContext &ctx, const Instr &instr) {
  llvm::Value *value = ctx.readOperand(1);
  llvm::IntegerType *type = ctx.intType(ctx.operandBits(0));
  if (value->getType()->getIntegerBitWidth() >= type->getBitWidth()) {
    // movsxd r32, r/m32 is a plain move. movsxd r16, r/m16 (66 63) comes with its memory
    // operand decoded as 32 bits: the destination is the source's low bits either way.
    ctx.writeOperand(0, ctx.ir.CreateTrunc(value, type));
    return LiftStatus::Lifted;
  }
  ctx.writeOperand(0, IsSigned ? ctx.ir.CreateSExt(value, type) : ctx.ir.CreateZExt(value, type));
  return LiftStatus::Lifted;
}

LiftStatus liftLea(LiftContext &ctx, const Instr &instr) {
  ctx.writeOperand(0, ctx.readOperand(1, ctx.operandBits(0)));
  return LiftStatus::Lifted;
}

/// xchg: with a memory operand it is locked, lock prefix or not (SDM vol. 2, XCHG).
LiftStatus liftXchg(LiftContext &ctx, const Instr &instr) {
  llvm::Value *first, *second;
  if (ctx.updatesAtomically(0)) {
    second = ctx.readOperand(1);
    first = ctx.readOperandForUpdate(0, llvm::AtomicRMWInst::Xchg, second);
  } else {
    first = ctx.readOperand(0);
    second = ctx.readOperandForUpdate(1, llvm::AtomicRMWInst::Xchg, first);
  }
  ctx.writeOperand(0, second);
  ctx.writeOperand(1, first);
  return LiftStatus::Lifted;
}

/// movbe: a load or store with the bytes reversed (SDM vol. 2, MOVBE); no flags.
LiftStatus liftMovbe(LiftContext &ctx, const Instr &instr) {
  llvm::Value *value = ctx.readOperand(1);
  ctx.writeOperand(0, ctx.ir.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, value));
  return LiftStatus::Lifted;
}

} // namespace

void registerDataXfer(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_MOV, liftMov);
  table.add(ZYDIS_MNEMONIC_MOVZX, liftExtend<false>);
  table.add(ZYDIS_MNEMONIC_MOVSX, liftExtend<true>);
  table.add(ZYDIS_MNEMONIC_MOVSXD, liftExtend<true>);
  table.add(ZYDIS_MNEMONIC_LEA, liftLea);
  table.add(ZYDIS_MNEMONIC_XCHG, liftXchg);
  table.add(ZYDIS_MNEMONIC_MOVBE, liftMovbe);
}

} // namespace hoist
