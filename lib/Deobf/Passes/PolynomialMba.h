// Proofs for polynomial MBA of degree two, by a signature of bit pairs (see PolynomialMba.cpp):
// sums of integer multiples of products of at most two bitwise functions of the leaves, such
// as (x&y)*(x|y) + (x&~y)*(~x&y) and x*y, which Z3 cannot tell apart in any useful time.
#pragma once

#include "Deobf/Passes/Expression.h"

namespace hoist::deobf {

/// True when roots 0 and 1 of `expression` are provably equal for every leaf value, as
/// polynomials of degree at most two over bitwise functions of at most six leaves. False when
/// they are not such polynomials or the sufficient condition does not hold.
bool provedEqualAsPolynomials(const Expression &expression);

} // namespace hoist::deobf
