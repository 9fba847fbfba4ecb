// Instructions that fault on purpose (Zydis categories SYSTEM and INTERRUPT): ud2, int3, hlt.
// Compilers put them after calls that do not return and in assertion paths.
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

/// ud2 and hlt (in user mode, #GP) fault: the CPU reports the instruction's own address.
LiftStatus liftFault(LiftContext &ctx, const Instr &instr) {
  ctx.control().trap(ctx.ir.getInt64(instr.address));
  return LiftStatus::Lifted;
}

/// int3 raises #BP, a trap: the CPU reports the address after it (SDM vol. 3, 6.5).
LiftStatus liftBreakpoint(LiftContext &ctx, const Instr &instr) {
  ctx.control().trap(ctx.ir.getInt64(instr.next()));
  return LiftStatus::Lifted;
}

} // namespace

void registerSystem(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_UD2, liftFault);
  table.add(ZYDIS_MNEMONIC_HLT, liftFault);
  table.add(ZYDIS_MNEMONIC_INT3, liftBreakpoint);
}

} // namespace hoist
