// SIMD data movement (Zydis category DATAXFER of SSE and AVX): whole-register and scalar
// moves, loads and stores.
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

/// movaps, movups, movdqa, movdqu and their VEX forms: a whole register or memory operand.
/// Alignment faults of the aligned forms come from readVector/writeVector.
LiftStatus liftVectorMove(LiftContext &ctx, const Instr &instr) {
  ctx.writeVector(0, ctx.readVector(1, ctx.ir.getInt64Ty()));
  return LiftStatus::Lifted;
}

} // namespace

void registerSimdMove(SemanticTable &table) {
  for (ZydisMnemonic mnemonic :
       {ZYDIS_MNEMONIC_MOVAPS, ZYDIS_MNEMONIC_MOVUPS, ZYDIS_MNEMONIC_MOVAPD,
        ZYDIS_MNEMONIC_MOVUPD, ZYDIS_MNEMONIC_MOVDQA, ZYDIS_MNEMONIC_MOVDQU,
        ZYDIS_MNEMONIC_VMOVAPS, ZYDIS_MNEMONIC_VMOVUPS, ZYDIS_MNEMONIC_VMOVAPD,
        ZYDIS_MNEMONIC_VMOVUPD, ZYDIS_MNEMONIC_VMOVDQA, ZYDIS_MNEMONIC_VMOVDQU})
    table.add(mnemonic, liftVectorMove);
}

} // namespace hoist
