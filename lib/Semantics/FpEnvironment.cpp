// The SIMD and x87 environment as a whole: ldmxcsr/stmxcsr and fxsave/fxrstor, which copy
// State to and from memory in the fxsave layout (SDM vol. 1, 10.5.1, table 10-2; the bytes
// are written and read by LegacyRegion, which the xsave family in Xsave.cpp shares).
//
// Hoist models arithmetic in the default environment only (round to nearest, no DAZ/FTZ,
// exceptions masked; docs/DESIGN.md), so loading a new MXCSR is lifted exactly but noted:
// arithmetic after it still rounds to nearest.
#include "Semantics/LegacyRegion.h"

#include "Support/Diagnostics.h"

namespace hoist {
namespace {

LiftStatus liftLdmxcsr(LiftContext &ctx, const Instr &instr) {
  llvm::Value *value = ctx.readOperand(0, 32);
  legacy::trapIfReservedMxcsr(ctx, instr, value);
  ctx.writeVar(Var::MXCSR, value);
  legacy::noteEnvironmentLoad(ctx, instr);
  return LiftStatus::Lifted;
}

LiftStatus liftStmxcsr(LiftContext &ctx, const Instr &instr) {
  ctx.writeOperand(0, ctx.readVar(Var::MXCSR));
  return LiftStatus::Lifted;
}

/// fxsave and fxrstor fault (#GP) unless the area is 16-byte aligned.
llvm::Value *alignedArea(LiftContext &ctx, const Instr &instr) {
  llvm::Value *base = ctx.effectiveAddress(instr.op(0));
  ctx.trapIfMisaligned(base, 16);
  return base;
}

LiftStatus liftFxsave(LiftContext &ctx, const Instr &instr) {
  llvm::Value *base = alignedArea(ctx, instr);
  legacy::storeX87(ctx, base);
  legacy::storeMxcsr(ctx, base);
  legacy::storeXmm(ctx, base);
  return LiftStatus::Lifted;
}

LiftStatus liftFxrstor(LiftContext &ctx, const Instr &instr) {
  llvm::Value *base = alignedArea(ctx, instr);
  // Everything is read before anything is written: the MXCSR check may still fault.
  llvm::Value *mxcsr = ctx.load(legacy::at(ctx, base, legacy::MxcsrOffset), ctx.ir.getInt32Ty());
  legacy::X87State x87 = legacy::loadX87(ctx, base);
  std::array<llvm::Value *, 16> xmm = legacy::loadXmm(ctx, base);
  legacy::trapIfReservedMxcsr(ctx, instr, mxcsr);
  ctx.writeVar(Var::MXCSR, mxcsr);
  legacy::writeX87(ctx, x87);
  legacy::writeXmm(ctx, xmm);
  legacy::noteEnvironmentLoad(ctx, instr);
  return LiftStatus::Lifted;
}

} // namespace

void noteFpEnvironment(LiftContext &ctx, const Instr &instr, llvm::StringRef assumption) {
  ctx.diagnostics().report(Severity::Note, "fp-environment", instr.address,
                           instr.describe() + ": " + assumption.str());
}

void registerFpEnvironment(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_LDMXCSR, liftLdmxcsr);
  table.add(ZYDIS_MNEMONIC_VLDMXCSR, liftLdmxcsr);
  table.add(ZYDIS_MNEMONIC_STMXCSR, liftStmxcsr);
  table.add(ZYDIS_MNEMONIC_VSTMXCSR, liftStmxcsr);
  table.add(ZYDIS_MNEMONIC_FXSAVE, liftFxsave);
  table.add(ZYDIS_MNEMONIC_FXSAVE64, liftFxsave);
  table.add(ZYDIS_MNEMONIC_FXRSTOR, liftFxrstor);
  table.add(ZYDIS_MNEMONIC_FXRSTOR64, liftFxrstor);
}

} // namespace hoist
