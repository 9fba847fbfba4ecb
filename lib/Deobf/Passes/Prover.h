// Deciding facts about expression DAGs: first by testing (random and corner leaf values), then
// with Z3 (Debian's libz3-dev) within a time budget when Hoist was built with it. Testing can
// only refute; a fact the deobfuscation passes act on without an exact theory behind it must
// be proved.
#pragma once

#include "Deobf/Passes/Expression.h"

namespace hoist::deobf {

enum class Verdict { Proved, Refuted, Unknown };

/// Whether roots 0 and 1 of `expression` are equal for every leaf value. Refuted when a test
/// finds a difference; otherwise Z3 decides (Unknown without Z3, or when its budget runs out:
/// `timeoutMs`, and `resourceLimit` units of Z3's work unless 0).
Verdict proveEqual(const Expression &expression, unsigned timeoutMs, unsigned resourceLimit = 0);

/// Whether roots 0 and 1 of `expression` differ for every leaf value (same rules).
Verdict proveNeverEqual(const Expression &expression, unsigned timeoutMs);

/// Whether roots 0 and 1 agree on every test point (testPoints): no proof, only no refutation.
bool testsAgree(const Expression &expression);

/// True when Hoist was built with Z3.
bool haveZ3();

/// The leaf values tests use: corner values (0, 1, -1, the sign bit, the largest positive)
/// in every combination the budget allows, then pseudo-random words.
std::vector<std::vector<uint64_t>> testPoints(const Expression &expression, unsigned count);

} // namespace hoist::deobf
