// A short bitwise expression (and, or, xor, not) of up to six values for a truth table: the
// output side of MBA simplification, which knows a bitwise function only by its table.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <vector>

namespace hoist::deobf {

/// `table` bit p is the function's value where variable i is bit i of p (2^n points, n =
/// variables.size() <= 6). The variables have the type of the result.
llvm::Value *buildBitwise(llvm::IRBuilder<> &builder, uint64_t table,
                          const std::vector<llvm::Value *> &variables);

/// The truth table of variable i over n variables.
uint64_t variableTable(unsigned i, unsigned n);

/// All 2^n points set.
inline uint64_t fullTable(unsigned n) { return n >= 6 ? ~0ull : (1ull << (1u << n)) - 1; }

} // namespace hoist::deobf
