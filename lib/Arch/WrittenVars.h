// Which variables a function's instructions may write, read off the decoder's operand and
// flag lists before lifting: a variable no instruction writes holds, at every point of the
// function, what State holds there (State changes only at calls, which reload), so the lifter
// needs no phi for it and never writes it back (RegisterFile::assumeOnlyWritten). The
// prediction is checked, not trusted: RegisterFile records what the semantics actually write,
// and a function whose semantics wrote more is lifted again without it.
#pragma once

#include "Arch/Registers.h"
#include "Decode/Instr.h"

#include <bitset>

namespace hoist {

using VarSet = std::bitset<NumVars>;

/// The variables `instr` may write, as the decoder describes it: written register operands
/// (hidden ones included), the flags it modifies, sets, clears or leaves undefined, and for
/// x87, MMX and state-restoring instructions the whole group they touch.
VarSet varsWrittenBy(const Instr &instr);

} // namespace hoist
