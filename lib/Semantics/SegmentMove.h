// `mov` to and from segment registers, which DataXfer's mov hands over.
#pragma once

#include "Arch/LiftContext.h"

namespace hoist {

/// The State field of a segment register (ES..GS), or nullopt for any other register.
std::optional<HoistStateField> selectorField(ZydisRegister reg);

/// mov r/m, Sreg and mov Sreg, r/m16 in 64-bit user mode.
LiftStatus liftSegmentMove(LiftContext &ctx, const Instr &instr);

} // namespace hoist
