// Semantics of exchange-and-compare instructions (Zydis category SEMAPHORE): xadd, cmpxchg,
// cmpxchg8b, cmpxchg16b. With `lock` each is one atomic operation (Arch/AtomicAccess.cpp).
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

/// xadd: TEMP = SRC + DEST; SRC = DEST; DEST = TEMP (so with one register twice, DEST wins).
LiftStatus liftXadd(LiftContext &ctx, const Instr &instr) {
  bool locked = ctx.updatesAtomically(0);
  llvm::Value *dst = locked ? nullptr : ctx.readOperand(0);
  llvm::Value *src = ctx.readOperand(1);
  if (locked)
    dst = ctx.readOperandForUpdate(0, llvm::AtomicRMWInst::Add, src);
  llvm::Value *sum = ctx.ir.CreateAdd(dst, src);
  ctx.writeOperand(1, dst);
  ctx.writeOperand(0, sum);
  ctx.writeFlags(FlagOp::Add, dst, src, sum);
  return LiftStatus::Lifted;
}

/// Writes `value` to register `reg` only where `condition` holds.
void writeRegisterIf(LiftContext &ctx, llvm::Value *condition, ZydisRegister reg,
                     llvm::Value *value) {
  Var var = gprSlice(reg)->var;
  llvm::Value *merged = ctx.mergedRegister(reg, value);
  ctx.writeVar(var, ctx.ir.CreateSelect(condition, merged, ctx.readVar(var)));
}

/// cmpxchg: compare the accumulator with DEST; equal: DEST = SRC, else accumulator = DEST
/// (SDM vol. 2, CMPXCHG). A memory destination is written either way; flags as cmp.
LiftStatus liftCmpxchg(LiftContext &ctx, const Instr &instr) {
  unsigned bits = ctx.operandBits(0);
  ZydisRegister acc = accumulatorRegister(bits);
  bool locked = ctx.updatesAtomically(0);
  llvm::Value *dst = locked ? nullptr : ctx.readOperand(0);
  llvm::Value *src = ctx.readOperand(1);
  llvm::Value *accValue = ctx.readReg(acc);
  llvm::Value *equal;
  if (locked) {
    std::tie(dst, equal) =
        ctx.compareExchange(ctx.effectiveAddress(instr.op(0)), accValue, src);
  } else {
    equal = ctx.ir.CreateICmpEQ(accValue, dst);
  }
  writeRegisterIf(ctx, ctx.ir.CreateNot(equal), acc, dst);
  if (instr.op(0).isReg())
    writeRegisterIf(ctx, equal, instr.op(0).reg, src);
  else if (!locked)   // a locked one's compare-and-swap wrote memory
    ctx.writeOperand(0, ctx.ir.CreateSelect(equal, src, dst));
  ctx.writeFlags(FlagOp::Sub, accValue, dst, ctx.ir.CreateSub(accValue, dst));
  return LiftStatus::Lifted;
}

/// cmpxchg8b / cmpxchg16b: compare edx:eax (rdx:rax) with the memory operand; equal: memory =
/// ecx:ebx (rcx:rbx) and ZF = 1; else edx:eax = memory and ZF = 0. cmpxchg16b needs a 16-byte
/// aligned operand (#GP otherwise).
template <unsigned HalfBits>
LiftStatus liftCmpxchgDouble(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  bool wide = HalfBits == 64;
  ZydisRegister lowAcc = wide ? ZYDIS_REGISTER_RAX : ZYDIS_REGISTER_EAX;
  ZydisRegister highAcc = wide ? ZYDIS_REGISTER_RDX : ZYDIS_REGISTER_EDX;
  ZydisRegister lowNew = wide ? ZYDIS_REGISTER_RBX : ZYDIS_REGISTER_EBX;
  ZydisRegister highNew = wide ? ZYDIS_REGISTER_RCX : ZYDIS_REGISTER_ECX;
  llvm::IntegerType *pair = ctx.intType(HalfBits * 2);
  auto join = [&](ZydisRegister high, ZydisRegister low) {
    return ir.CreateOr(ir.CreateShl(ir.CreateZExt(ctx.readReg(high), pair), HalfBits),
                       ir.CreateZExt(ctx.readReg(low), pair));
  };
  llvm::Value *address = ctx.effectiveAddress(instr.op(0));
  if (wide)
    ctx.trapIfMisaligned(address, 16);
  llvm::Value *expected = join(highAcc, lowAcc);
  llvm::Value *replacement = join(highNew, lowNew);
  llvm::Value *memory, *equal;
  if (ctx.updatesAtomically(0)) {
    std::tie(memory, equal) = ctx.compareExchange(address, expected, replacement);
  } else {
    memory = ctx.load(address, pair);
    equal = ir.CreateICmpEQ(memory, expected);
    ctx.store(address, ir.CreateSelect(equal, replacement, memory));
  }
  llvm::Value *notEqual = ir.CreateNot(equal);
  llvm::IntegerType *half = ctx.intType(HalfBits);
  writeRegisterIf(ctx, notEqual, lowAcc, ir.CreateTrunc(memory, half));
  writeRegisterIf(ctx, notEqual, highAcc, ir.CreateTrunc(ir.CreateLShr(memory, HalfBits), half));
  ctx.writeFlag(Var::ZF, equal);
  return LiftStatus::Lifted;
}

LiftStatus liftCmpxchgMemoryPair(LiftContext &ctx, const Instr &instr) {
  return ctx.operandBits(0) == 128 ? liftCmpxchgDouble<64>(ctx, instr)
                                   : liftCmpxchgDouble<32>(ctx, instr);
}

} // namespace

void registerSemaphore(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_XADD, liftXadd);
  table.add(ZYDIS_MNEMONIC_CMPXCHG, liftCmpxchg);
  table.add(ZYDIS_MNEMONIC_CMPXCHG8B, liftCmpxchgMemoryPair);
  table.add(ZYDIS_MNEMONIC_CMPXCHG16B, liftCmpxchgMemoryPair);
}

} // namespace hoist
