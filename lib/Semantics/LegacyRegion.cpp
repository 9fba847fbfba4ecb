#include "Semantics/LegacyRegion.h"

namespace hoist::legacy {
namespace {

constexpr unsigned FcwOffset = 0, FswOffset = 2, FtwOffset = 4, FopOffset = 6, FipOffset = 8,
                   FdpOffset = 16, MxcsrMaskOffset = 28, StOffset = 32, StStride = 16,
                   XmmOffset = 160, XmmStride = 16;

llvm::Type *xmmType(LiftContext &ctx) {
  return llvm::FixedVectorType::get(ctx.ir.getInt64Ty(), 2);
}

} // namespace

llvm::Value *at(LiftContext &ctx, llvm::Value *base, unsigned offset) {
  return ctx.ir.CreateAdd(base, ctx.ir.getInt64(offset));
}

void storeX87(LiftContext &ctx, llvm::Value *base) {
  LiftBuilder &ir = ctx.ir;
  // The abridged tag is one byte; the byte after it is reserved and written as zero.
  llvm::Value *ftw = ir.CreateZExt(ir.CreateTrunc(ctx.readVar(Var::FPU_TW), ir.getInt8Ty()),
                                   ir.getInt16Ty());
  ctx.store(at(ctx, base, FcwOffset), ctx.readVar(Var::FPU_CW));
  ctx.store(at(ctx, base, FswOffset), ctx.readVar(Var::FPU_SW));
  ctx.store(at(ctx, base, FtwOffset), ftw);
  ctx.store(at(ctx, base, FopOffset), ir.getInt16(0));
  ctx.store(at(ctx, base, FipOffset), ir.getInt64(0));
  ctx.store(at(ctx, base, FdpOffset), ir.getInt64(0));
  for (unsigned i = 0; i < 8; ++i) {
    llvm::Value *slot = at(ctx, base, StOffset + StStride * i);
    ctx.store(slot, ir.CreateBitCast(ctx.readVar(stVar(i)), ir.getIntNTy(80)));
    ctx.store(at(ctx, slot, 10), ir.getIntN(48, 0));
  }
}

void storeMxcsr(LiftContext &ctx, llvm::Value *base) {
  ctx.store(at(ctx, base, MxcsrOffset), ctx.readVar(Var::MXCSR));
  ctx.store(at(ctx, base, MxcsrMaskOffset), ctx.ir.getInt32(MxcsrMask));
}

void storeXmm(LiftContext &ctx, llvm::Value *base) {
  for (unsigned i = 0; i < 16; ++i) {
    llvm::Value *xmm = ctx.ir.CreateShuffleVector(ctx.readVar(ymmVar(i)), {0, 1});
    ctx.store(at(ctx, base, XmmOffset + XmmStride * i), xmm);
  }
}

X87State loadX87(LiftContext &ctx, llvm::Value *base) {
  LiftBuilder &ir = ctx.ir;
  X87State state;
  state.fcw = x87ControlWordAsLoaded(ctx, ctx.load(at(ctx, base, FcwOffset), ir.getInt16Ty()));
  state.fsw = ctx.load(at(ctx, base, FswOffset), ir.getInt16Ty());
  state.ftw = ir.CreateZExt(ctx.load(at(ctx, base, FtwOffset), ir.getInt8Ty()), ir.getInt16Ty());
  for (unsigned i = 0; i < 8; ++i)
    state.st[i] =
        ir.CreateBitCast(ctx.load(at(ctx, base, StOffset + StStride * i), ir.getIntNTy(80)),
                         llvm::Type::getX86_FP80Ty(ir.getContext()));
  return state;
}

X87State initialX87(LiftContext &ctx) {
  X87State state;
  state.fcw = ctx.ir.getInt16(0x037f);
  state.fsw = ctx.ir.getInt16(0);
  state.ftw = ctx.ir.getInt16(0);
  state.st.fill(llvm::ConstantFP::getZero(llvm::Type::getX86_FP80Ty(ctx.ir.getContext())));
  return state;
}

void writeX87(LiftContext &ctx, const X87State &state) {
  ctx.writeVar(Var::FPU_CW, state.fcw);
  ctx.writeVar(Var::FPU_SW, state.fsw);
  ctx.writeVar(Var::FPU_TW, state.ftw);
  for (unsigned i = 0; i < 8; ++i)
    ctx.writeVar(stVar(i), state.st[i]);
}

std::array<llvm::Value *, 16> loadXmm(LiftContext &ctx, llvm::Value *base) {
  std::array<llvm::Value *, 16> xmm;
  for (unsigned i = 0; i < 16; ++i)
    xmm[i] = ctx.load(at(ctx, base, XmmOffset + XmmStride * i), xmmType(ctx));
  return xmm;
}

void writeXmm(LiftContext &ctx, const std::array<llvm::Value *, 16> &xmm) {
  LiftBuilder &ir = ctx.ir;
  for (unsigned i = 0; i < 16; ++i) {
    llvm::Value *low = xmm[i] ? xmm[i] : llvm::Constant::getNullValue(xmmType(ctx));
    llvm::Value *upper = ir.CreateShuffleVector(ctx.readVar(ymmVar(i)), {2, 3});
    ctx.writeVar(ymmVar(i), ir.CreateShuffleVector(low, upper, {0, 1, 2, 3}));
  }
}

void trapIfReservedMxcsr(LiftContext &ctx, const Instr &instr, llvm::Value *mxcsr,
                         llvm::Value *condition) {
  llvm::Value *reserved =
      ctx.ir.CreateICmpNE(ctx.ir.CreateAnd(mxcsr, ~MxcsrMask), ctx.ir.getInt32(0));
  if (condition)
    reserved = ctx.ir.CreateAnd(condition, reserved);
  ctx.control().trapIf(reserved, ctx.ir.getInt64(instr.address), HOIST_EXCEPTION_GP);
}

void noteEnvironmentLoad(LiftContext &ctx, const Instr &instr) {
  noteFpEnvironment(ctx, instr,
                    "arithmetic after a new MXCSR is lifted for round to nearest without "
                    "DAZ/FTZ; only conversions to integer and round* follow MXCSR.RC");
}

} // namespace hoist::legacy
