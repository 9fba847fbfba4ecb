// Z3 verdicts remembered by the shape of the question. The optimization fixpoint runs the
// deobfuscation passes in every round, and brightening runs it for every probe: a question Z3
// cannot answer within its budget would be asked again each time, each costing the whole budget.
#pragma once

#include "Deobf/Passes/Expression.h"
#include "Deobf/Passes/Prover.h"

#include <functional>

namespace hoist::deobf {

/// `prove(expression)`, or its earlier verdict for an expression of the same shape (operators,
/// widths, constants, how nodes and leaves connect; leaves are free, so equal shapes have equal
/// answers). `question` tells apart what is asked of the same expression.
Verdict cachedProof(const Expression &expression, char question,
                    const std::function<Verdict(const Expression &)> &prove);

} // namespace hoist::deobf
