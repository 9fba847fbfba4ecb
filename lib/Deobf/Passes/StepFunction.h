// Values that depend on one integer x only through comparisons of x with constants and x's
// sign (InstCombine's `lshr x, w-1`, `ashr x, w-1`, `and (ashr x, c), mask` reading sign
// copies): such a value is constant on each range between the constants, however an MBA or
// substitution wrote it (compare_sign's `(c > 0) - (c < 0)` under all four protections at
// -O2: ten instructions over strcmp's result). Evaluated once per range, it is a short chain
// of selects on x's ranges, exactly: no proof.
#pragma once

#include <llvm/IR/Instruction.h>

namespace hoist::deobf {

/// The select chain over x's ranges equal to `root`, built in front of it, when `root` is
/// such a value with at most four ranges of distinct values and the chain is shorter than the
/// instructions only `root` uses; null otherwise (nothing built).
llvm::Value *buildStepFunction(llvm::Instruction *root);

} // namespace hoist::deobf
