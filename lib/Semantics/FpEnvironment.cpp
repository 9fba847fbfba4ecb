// The SIMD and x87 environment as a whole: ldmxcsr/stmxcsr and fxsave/fxrstor, which copy
// State to and from memory in the fxsave layout (SDM vol. 1, 10.5.1, table 10-2).
//
// Hoist models arithmetic in the default environment only (round to nearest, no DAZ/FTZ,
// exceptions masked; docs/DESIGN.md), so loading a new MXCSR is lifted exactly but noted:
// arithmetic after it still rounds to nearest. Not modelled, and stored as zero by fxsave:
// the x87 last-instruction pointers and opcode (FIP, FDP, FOP), which only debuggers read.
#include "Semantics/Semantics.h"

#include "Support/Diagnostics.h"

namespace hoist {
namespace {

/// The MXCSR bits this CPU family implements (fxsave's MXCSR_MASK on current Intel and AMD
/// parts); loading any other bit raises #GP.
constexpr uint32_t MxcsrMask = 0xffff;

constexpr unsigned FcwOffset = 0, FswOffset = 2, FtwOffset = 4, MxcsrOffset = 24,
                   MxcsrMaskOffset = 28, StOffset = 32, XmmOffset = 160;

void noteEnvironment(LiftContext &ctx, const Instr &instr) {
  noteFpEnvironment(ctx, instr,
                    "arithmetic after a new MXCSR is lifted for round to nearest without "
                    "DAZ/FTZ; only conversions to integer and round* follow MXCSR.RC");
}

/// Loads `value` into MXCSR, faulting (#GP) as the CPU does when a reserved bit is set.
void loadMxcsr(LiftContext &ctx, const Instr &instr, llvm::Value *value) {
  llvm::Value *reserved = ctx.ir.CreateICmpNE(ctx.ir.CreateAnd(value, ~MxcsrMask),
                                              ctx.ir.getInt32(0));
  ctx.control().trapIf(reserved, ctx.ir.getInt64(instr.address));
  ctx.writeVar(Var::MXCSR, value);
}

LiftStatus liftLdmxcsr(LiftContext &ctx, const Instr &instr) {
  loadMxcsr(ctx, instr, ctx.readOperand(0, 32));
  noteEnvironment(ctx, instr);
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

llvm::Value *at(LiftContext &ctx, llvm::Value *base, unsigned offset) {
  return ctx.ir.CreateAdd(base, ctx.ir.getInt64(offset));
}

LiftStatus liftFxsave(LiftContext &ctx, const Instr &instr) {
  llvm::IRBuilder<> &ir = ctx.ir;
  llvm::Value *base = alignedArea(ctx, instr);
  // Header: FCW, FSW, the abridged FTW, a reserved byte, FOP and the two pointers (zero).
  ctx.store(at(ctx, base, FcwOffset), ctx.readVar(Var::FPU_CW));
  ctx.store(at(ctx, base, FswOffset), ctx.readVar(Var::FPU_SW));
  ctx.store(at(ctx, base, FtwOffset), ir.CreateZExt(ir.CreateTrunc(ctx.readVar(Var::FPU_TW),
                                                                   ir.getInt8Ty()),
                                                    ir.getInt16Ty()));
  ctx.store(at(ctx, base, 6), ir.getInt16(0));
  ctx.store(at(ctx, base, 8), ir.getInt64(0));
  ctx.store(at(ctx, base, 16), ir.getInt64(0));
  ctx.store(at(ctx, base, MxcsrOffset), ctx.readVar(Var::MXCSR));
  ctx.store(at(ctx, base, MxcsrMaskOffset), ir.getInt32(MxcsrMask));
  for (unsigned i = 0; i < 8; ++i) {
    llvm::Value *slot = at(ctx, base, StOffset + 16 * i);
    ctx.store(slot, ir.CreateBitCast(ctx.readVar(stVar(i)), ir.getIntNTy(80)));
    ctx.store(at(ctx, slot, 10), ir.getIntN(48, 0));
  }
  for (unsigned i = 0; i < 16; ++i) {
    llvm::Value *xmm = ir.CreateShuffleVector(ctx.readVar(ymmVar(i)), {0, 1});
    ctx.store(at(ctx, base, XmmOffset + 16 * i), xmm);
  }
  return LiftStatus::Lifted;
}

LiftStatus liftFxrstor(LiftContext &ctx, const Instr &instr) {
  llvm::IRBuilder<> &ir = ctx.ir;
  llvm::Value *base = alignedArea(ctx, instr);
  // Everything is read before anything is written: the MXCSR check may still fault.
  llvm::Value *mxcsr = ctx.load(at(ctx, base, MxcsrOffset), ir.getInt32Ty());
  llvm::Value *fcw = ctx.load(at(ctx, base, FcwOffset), ir.getInt16Ty());
  llvm::Value *fsw = ctx.load(at(ctx, base, FswOffset), ir.getInt16Ty());
  llvm::Value *ftw = ir.CreateZExt(ctx.load(at(ctx, base, FtwOffset), ir.getInt8Ty()),
                                   ir.getInt16Ty());
  llvm::Value *st[8], *xmm[16];
  for (unsigned i = 0; i < 8; ++i)
    st[i] = ir.CreateBitCast(ctx.load(at(ctx, base, StOffset + 16 * i), ir.getIntNTy(80)),
                             llvm::Type::getX86_FP80Ty(ir.getContext()));
  for (unsigned i = 0; i < 16; ++i)
    xmm[i] = ctx.load(at(ctx, base, XmmOffset + 16 * i),
                      llvm::FixedVectorType::get(ir.getInt64Ty(), 2));
  loadMxcsr(ctx, instr, mxcsr);
  ctx.writeVar(Var::FPU_CW, fcw);
  ctx.writeVar(Var::FPU_SW, fsw);
  ctx.writeVar(Var::FPU_TW, ftw);
  for (unsigned i = 0; i < 8; ++i)
    ctx.writeVar(stVar(i), st[i]);
  for (unsigned i = 0; i < 16; ++i) {
    llvm::Value *upper = ir.CreateShuffleVector(ctx.readVar(ymmVar(i)), {2, 3});
    ctx.writeVar(ymmVar(i), ir.CreateShuffleVector(xmm[i], upper, {0, 1, 2, 3}));
  }
  noteEnvironment(ctx, instr);
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
