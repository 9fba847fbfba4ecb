// Compares a native and a lifted run field by field, ignoring exactly the flags the manual
// leaves undefined for this instruction and these inputs.
#pragma once

#include "Decode/Instr.h"
#include "NativeRunner.h"

#include <string>
#include <vector>

namespace hoist::test {

/// RFLAGS mask of the flags undefined for `instr` run from `in` (Zydis plus the documented
/// operand-dependent cases below).
uint32_t undefinedFlags(const Instr &instr, const CpuState &in);

/// Empty when equal, else every differing field as "rax native=0x.. lifted=0x..".
std::string compareRuns(const Instr &instr, const CpuState &in, const CpuState &native,
                        const CpuState &lifted, const std::vector<uint8_t> &nativeArena,
                        const std::vector<uint8_t> &liftedArena, uint64_t arenaAddress);

std::string describeState(const CpuState &state);

} // namespace hoist::test
