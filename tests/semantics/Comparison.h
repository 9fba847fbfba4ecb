// Compares a native and a lifted run field by field, ignoring exactly the flags the manual
// leaves undefined (UndefinedFlags.h), and describes states for mismatch reports.
#pragma once

#include "CpuState.h"
#include "Decode/Instr.h"

#include <cstdint>
#include <string>

namespace hoist::test {

/// Empty when the runs agree; else every differing field, "; "-separated, as
/// `CF native=1 lifted=0`, `rax native=0x.. lifted=0x..` or `memory 0x..-0x..: native=.. lifted=..`.
/// The arenas are layout::ArenaSize bytes each, as the runs left them.
std::string compareRuns(const Instr &instr, const CpuState &in, const RunResult &native,
                        const RunResult &lifted, const uint8_t *nativeArena,
                        const uint8_t *liftedArena);

/// `exit`, `fault (SIGSEGV at rip=.., address ..)`, `harness error (SIGILL at rip=.., ...)`...
std::string describeOutcome(const RunResult &run);

/// `rax=0x.. ... r15=0x.. CF=1 PF=0 AF=0 ZF=1 SF=0 DF=0 OF=0 [0x60002410]=ff 00 ...`: the
/// registers, flags and the initial bytes of every memory operand of `instr`.
std::string describeInput(const Instr &instr, const CpuState &in, const uint8_t *initialArena);

} // namespace hoist::test
