// Which bytes of an XMM register argument a function really reads, following them through the
// vector shapes SROA leaves when a 128-bit register lives in a 256-bit YMM slot: inserted into
// a lane, bitcast, shuffled, extracted. Lanes that a shuffle drops or an insertelement
// overwrites are not read; SSE code that writes the low lane of a register whose upper lanes
// it never looks at (addss, movss, a vectorized loop's accumulator) then has no vector
// argument after all.
#pragma once

#include <llvm/Analysis/DemandedBits.h>
#include <llvm/IR/Argument.h>

#include <bitset>
#include <optional>

namespace hoist {

inline constexpr unsigned MaxTrackedBytes = 64;
using ByteSet = std::bitset<MaxTrackedBytes>;

/// The bytes of `argument` that reach a scalar computation, or nullopt when some use is not
/// one the walk follows. Uses by `ignored` (the probe's result sink) are not reads.
std::optional<ByteSet> bytesRead(const llvm::Argument &argument, llvm::DemandedBits &demanded,
                                 llvm::function_ref<bool(const llvm::User *)> ignored);

} // namespace hoist
