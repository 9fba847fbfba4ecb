// Instructions with no architectural effect on registers or memory contents in user mode
// (Zydis categories NOP and PREFETCH, the fences, the cache-line flushes, and CET's endbr64,
// which only marks an indirect-branch target).
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

LiftStatus liftNothing(LiftContext &, const Instr &) { return LiftStatus::Lifted; }

/// mfence, lfence, sfence order memory accesses between processors; in the lifted function a
/// sequentially consistent fence keeps that ordering for any later concurrent use of the IR.
LiftStatus liftFence(LiftContext &ctx, const Instr &) {
  ctx.ir.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
  return LiftStatus::Lifted;
}

/// clflush and friends write a cache line back without changing memory, but they fault like a
/// one-byte read (SDM vol. 2A, CLFLUSH: "#PF(fault-code)"): a volatile load keeps the fault.
LiftStatus liftCacheFlush(LiftContext &ctx, const Instr &instr) {
  llvm::Value *address = ctx.effectiveAddress(instr.op(0));
  llvm::Value *ptr = ctx.ir.CreateGEP(ctx.ir.getInt8Ty(), ctx.memoryBase(), address);
  ctx.ir.CreateLoad(ctx.ir.getInt8Ty(), ptr, /*isVolatile=*/true);
  return LiftStatus::Lifted;
}

} // namespace

void registerNop(SemanticTable &table) {
  // Prefetches never fault, whatever the address (SDM vol. 2B, PREFETCHh).
  for (ZydisMnemonic nop :
       {ZYDIS_MNEMONIC_NOP, ZYDIS_MNEMONIC_ENDBR64, ZYDIS_MNEMONIC_ENDBR32, ZYDIS_MNEMONIC_PAUSE,
        ZYDIS_MNEMONIC_PREFETCHT0, ZYDIS_MNEMONIC_PREFETCHT1, ZYDIS_MNEMONIC_PREFETCHT2,
        ZYDIS_MNEMONIC_PREFETCHNTA, ZYDIS_MNEMONIC_PREFETCHW, ZYDIS_MNEMONIC_PREFETCHWT1,
        ZYDIS_MNEMONIC_PREFETCH})
    table.add(nop, liftNothing);
  for (ZydisMnemonic fence : {ZYDIS_MNEMONIC_MFENCE, ZYDIS_MNEMONIC_LFENCE, ZYDIS_MNEMONIC_SFENCE})
    table.add(fence, liftFence);
  for (ZydisMnemonic flush :
       {ZYDIS_MNEMONIC_CLFLUSH, ZYDIS_MNEMONIC_CLFLUSHOPT, ZYDIS_MNEMONIC_CLWB})
    table.add(flush, liftCacheFlush);
}

} // namespace hoist
