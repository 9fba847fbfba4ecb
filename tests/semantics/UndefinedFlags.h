// Which flags the manual leaves undefined for one execution, so the comparison masks exactly
// those: an undefined flag is a value the lifter and the optimizer may choose freely.
#pragma once

#include "CpuState.h"
#include "Decode/Instr.h"

#include <cstdint>

namespace hoist::test {

/// RFLAGS mask (FlagCF ...) of the flags undefined after `instr` runs from `in`: Zydis' set
/// for the instruction, refined where the SDM makes it depend on the operands.
uint32_t undefinedFlags(const Instr &instr, const CpuState &in);

} // namespace hoist::test
