// Which general-purpose registers and status flags may be read before they are written, at
// each block start of a function's static control-flow graph. Concolic lifting forgets the
// dead ones in a block instance's context: a register left holding a different constant on
// two paths (a string pointer in a callee-saved register after a VM's handler) would
// otherwise keep the paths apart and lift the rest of the function twice.
//
// Conservative where the static graph says little: every register is live at a return, an
// unresolved jump and any address the graph does not know (obfuscated code reaches those);
// none after ud2, hlt or a call that never returns.
// A call reads the argument registers and clobbers the caller-saved ones, as the ABI says.
#pragma once

#include "Discover/FunctionExplorer.h"
#include "Brighten/CallingConvention.h"

#include <cstdint>
#include <map>
#include <optional>

namespace hoist {

/// Bits 0-15: the GPRs in Var order (RAX..R15); bits 16-22: CF PF AF ZF SF DF OF.
using LiveSet = uint32_t;
constexpr LiveSet AllLive = (1u << 23) - 1;

class RegisterLiveness {
public:
  RegisterLiveness(const ExploredFunction &function, CallingConvention convention);
  /// What is live where a block of the graph starts; nullopt for any other address.
  std::optional<LiveSet> liveAt(uint64_t address) const;

private:
  std::map<uint64_t, LiveSet> liveIn_;
};

} // namespace hoist
