// Deciding facts about expression DAGs: first by testing (random and corner leaf values), then
// with Z3 (Debian's libz3-dev) within a budget of Z3's work when Hoist was built with it. Testing can
// only refute; a fact the deobfuscation passes act on without an exact theory behind it must
// be proved.
#pragma once

#include "Deobf/Passes/Expression.h"

namespace hoist::deobf {

enum class Verdict { Proved, Refuted, Unknown };

/// The deobfuscation passes' budget for one Z3 proof: a count of Z3's own work ("rlimit"
/// units: Z3 counts them as its solver works, the same count on any machine and under any
/// load, so a proof's verdict never depends on how busy the machine is), with a wall-clock
/// backstop that only a pathological query reaches. Measured on the deobfuscation corpus
/// (tests/deobfuscate/run-corpus.sh, all four protections): every proof Z3 completes needs at
/// most ~300,000 units, which took 0.1-0.3 s on the loaded 2-core test machine (about 1,000
/// units per ms); 500,000 units is under 0.5 s there.
constexpr unsigned PassProofResourceLimit = 500'000;
constexpr unsigned PassProofBackstopMs = 5'000;

/// Whether roots 0 and 1 of `expression` are equal for every leaf value. Refuted when a test
/// finds a difference; otherwise enumeration (few unknown bits) or Z3 decides (Unknown without Z3, or when its budget runs out:
/// `resourceLimit` units of Z3's work unless 0, or `timeoutMs` of wall-clock time).
Verdict proveEqual(const Expression &expression, unsigned timeoutMs, unsigned resourceLimit = 0);

/// Whether roots 0 and 1 of `expression` differ for every leaf value (same rules).
Verdict proveNeverEqual(const Expression &expression, unsigned timeoutMs,
                        unsigned resourceLimit = 0);

/// Whether roots 0 and 1 agree on every test point (testPoints): no proof, only no refutation.
bool testsAgree(const Expression &expression);

/// Inputs up to 2^MaxEnumeratedBits are tried one by one rather than proved.
constexpr unsigned MaxEnumeratedBits = 12;

/// Whether roots 0 and 1 of `expression` are equal (`equal`) or differ (else) on every input
/// the leaves can take, by trying each: nullopt when the leaves have more than
/// MaxEnumeratedBits unknown bits in all (a zext'ed i1 has one, under assumeKnownBits).
std::optional<Verdict> decideByEnumeration(const Expression &expression, bool equal);

/// True when Hoist was built with Z3.
bool haveZ3();

/// The leaf values tests use: corner values (0, 1, -1, the sign bit, the largest positive)
/// in every combination the budget allows, then pseudo-random words.
std::vector<std::vector<uint64_t>> testPoints(const Expression &expression, unsigned count);

} // namespace hoist::deobf
