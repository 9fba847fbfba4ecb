// Instructions that fault on purpose (Zydis categories SYSTEM and INTERRUPT): ud2, int3, hlt.
// Compilers put them after calls that do not return and in assertion paths.
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

LiftStatus liftTrap(LiftContext &ctx, const Instr &instr) {
  ctx.control().trap(ctx.ir.getInt64(instr.address));
  return LiftStatus::Lifted;
}

} // namespace

void registerSystem(SemanticTable &table) {
  for (ZydisMnemonic trap : {ZYDIS_MNEMONIC_UD2, ZYDIS_MNEMONIC_INT3, ZYDIS_MNEMONIC_HLT})
    table.add(trap, liftTrap);
}

} // namespace hoist
