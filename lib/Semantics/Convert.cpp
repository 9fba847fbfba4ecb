// Sign extensions within rax and into rdx (Zydis category CONVERT): cbw, cwde, cdqe, cwd, cdq, cqo.
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

/// cbw, cwde, cdqe: the low half of the accumulator sign-extended into all of it.
template <ZydisRegister Dst, ZydisRegister Src>
LiftStatus liftExtendAccumulator(LiftContext &ctx, const Instr &instr) {
  llvm::Value *value = ctx.readReg(Src);
  unsigned bits = value->getType()->getIntegerBitWidth() * 2;
  ctx.writeReg(Dst, ctx.ir.CreateSExt(value, ctx.intType(bits)));
  return LiftStatus::Lifted;
}

/// cwd, cdq, cqo: the sign of the accumulator copied into every bit of the data register.
template <ZydisRegister Dst, ZydisRegister Src>
LiftStatus liftSignIntoData(LiftContext &ctx, const Instr &instr) {
  llvm::Value *value = ctx.readReg(Src);
  unsigned bits = value->getType()->getIntegerBitWidth();
  ctx.writeReg(Dst, ctx.ir.CreateAShr(value, bits - 1));
  return LiftStatus::Lifted;
}

} // namespace

void registerConvert(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_CBW, liftExtendAccumulator<ZYDIS_REGISTER_AX, ZYDIS_REGISTER_AL>);
  table.add(ZYDIS_MNEMONIC_CWDE, liftExtendAccumulator<ZYDIS_REGISTER_EAX, ZYDIS_REGISTER_AX>);
  table.add(ZYDIS_MNEMONIC_CDQE, liftExtendAccumulator<ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_EAX>);
  table.add(ZYDIS_MNEMONIC_CWD, liftSignIntoData<ZYDIS_REGISTER_DX, ZYDIS_REGISTER_AX>);
  table.add(ZYDIS_MNEMONIC_CDQ, liftSignIntoData<ZYDIS_REGISTER_EDX, ZYDIS_REGISTER_EAX>);
  table.add(ZYDIS_MNEMONIC_CQO, liftSignIntoData<ZYDIS_REGISTER_RDX, ZYDIS_REGISTER_RAX>);
}

} // namespace hoist
