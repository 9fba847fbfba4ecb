// Whether code explored from an address that nothing calls, jumps to or relocates could be a
// function's entry: the test for a start that only its own code can justify (an unaligned gap
// after a ret, a word of a position-dependent image that looks like a code address).
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "hoist/Image.h"

#include <optional>
#include <string>

namespace hoist {

/// How much the code must show. `Shape`: nothing in it may say it is no function.
/// `BalancedReturn`: moreover it must leave (ret, or jmp to another function) at least once, and
/// wherever it leaves, rsp must be known to be where it was at its start: for code right after a
/// call that never returns, which may be the caller's dead code, where a `leave` or nothing but
/// noreturn calls would show nothing.
enum class EntryEvidence { Shape, BalancedReturn };

/// Why the code of `function`, explored from an address as if it were a function, cannot be one
/// (nullopt when nothing says so): it runs into bytes that do not decode or out of the code;
/// it reads a register the ABI has the caller keep (rbx, rbp, r12 to r15) other than to save
/// it, or a status flag, before writing it, so it continues code that set them (a case label,
/// a block of a loop); or it returns, or jumps to another function, with rsp not where it was
/// at its start (pops what code before it pushed). `function`'s blocks must still hold their
/// instructions (fresh from discoverFunction).
std::optional<std::string> whyNotAFunctionEntry(const Image &image,
                                                const DiscoveredFunction &function,
                                                EntryEvidence evidence);

} // namespace hoist
