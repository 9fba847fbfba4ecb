// The few values a symbolic jump target can take, when it is built from constants by selects,
// phis and constant arithmetic (a flattened dispatcher's `cond ? A : B`, an opaque choice).
#pragma once

#include <llvm/IR/Value.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace hoist {

/// Every value `value` can take, in increasing order, or nullopt when some operand is not a
/// constant or there are more than `limit`. Walks selects, phis, integer casts, arithmetic
/// with constants and comparisons; a condition it cannot list is either value.
/// `throughPhi` (when given) tells whether the walk went through a phi (values merged from
/// other paths, a generalized loop's).
std::optional<std::vector<uint64_t>> possibleTargets(llvm::Value *value, unsigned limit = 64,
                                                     bool *throughPhi = nullptr);

} // namespace hoist
