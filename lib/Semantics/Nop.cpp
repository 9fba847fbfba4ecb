// Instructions with no architectural effect in user mode (Zydis categories NOP, and CET's
// endbr64 which only marks an indirect-branch target).
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

LiftStatus liftNothing(LiftContext &, const Instr &) { return LiftStatus::Lifted; }

} // namespace

void registerNop(SemanticTable &table) {
  for (ZydisMnemonic nop : {ZYDIS_MNEMONIC_NOP, ZYDIS_MNEMONIC_ENDBR64, ZYDIS_MNEMONIC_ENDBR32,
                            ZYDIS_MNEMONIC_PAUSE})
    table.add(nop, liftNothing);
}

} // namespace hoist
