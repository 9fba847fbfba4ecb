// Truth table to bitwise expression. Functions of one or two of the variables get their
// textbook form (x & ~y, x | y, ~(x ^ y), ...); others the algebraic normal form, an xor of
// ands, or the negation of the complement's when that is shorter.
#include "Deobf/Passes/BitwiseBuilder.h"

#include <bit>

namespace hoist::deobf {
namespace {

/// Table over two variables a, b (bit p: a = p & 1, b = p >> 1) to an expression.
llvm::Value *twoVariables(llvm::IRBuilder<> &b, unsigned table, llvm::Value *x, llvm::Value *y) {
  switch (table & 0xf) {
  case 0x0: return llvm::Constant::getNullValue(x->getType());
  case 0x1: return b.CreateNot(b.CreateOr(x, y));
  case 0x2: return b.CreateAnd(x, b.CreateNot(y));
  case 0x3: return b.CreateNot(y);
  case 0x4: return b.CreateAnd(b.CreateNot(x), y);
  case 0x5: return b.CreateNot(x);
  case 0x6: return b.CreateXor(x, y);
  case 0x7: return b.CreateNot(b.CreateAnd(x, y));
  case 0x8: return b.CreateAnd(x, y);
  case 0x9: return b.CreateNot(b.CreateXor(x, y));
  case 0xA: return x;
  case 0xB: return b.CreateOr(x, b.CreateNot(y));
  case 0xC: return y;
  case 0xD: return b.CreateOr(b.CreateNot(x), y);
  case 0xE: return b.CreateOr(x, y);
  default: return llvm::Constant::getAllOnesValue(x->getType());
  }
}

bool dependsOn(uint64_t table, unsigned i, unsigned n) {
  uint64_t var = variableTable(i, n);
  // Points with variable i clear, compared with the same points with it set.
  uint64_t low = table & ~var & fullTable(n), high = (table & var) >> (1u << i);
  return low != high;
}

/// Algebraic normal form coefficients: bit S set when the and of the variables in S appears.
uint64_t algebraicNormalForm(uint64_t table, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    for (unsigned p = 0; p < (1u << n); ++p)
      if (p & (1u << i))
        table ^= ((table >> (p ^ (1u << i))) & 1) << p;
  return table;
}

unsigned anfCost(uint64_t anf) {
  unsigned cost = 0, terms = 0;
  for (unsigned s = 0; s < 64; ++s)
    if ((anf >> s) & 1) {
      ++terms;
      cost += s == 0 ? 0 : std::popcount(s) - 1;
    }
  return cost + (terms ? terms - 1 : 0);
}

llvm::Value *buildAnf(llvm::IRBuilder<> &b, uint64_t anf, const std::vector<llvm::Value *> &vars) {
  llvm::Type *type = vars.front()->getType();
  llvm::Value *sum = nullptr;
  for (unsigned s = 0; s < 64; ++s) {
    if (!((anf >> s) & 1))
      continue;
    llvm::Value *term = nullptr;
    for (unsigned i = 0; i < vars.size(); ++i)
      if (s & (1u << i))
        term = term ? b.CreateAnd(term, vars[i]) : vars[i];
    if (!term)
      term = llvm::Constant::getAllOnesValue(type);
    sum = sum ? b.CreateXor(sum, term) : term;
  }
  return sum ? sum : llvm::Constant::getNullValue(type);
}

} // namespace

uint64_t variableTable(unsigned i, unsigned n) {
  uint64_t table = 0;
  for (unsigned p = 0; p < (1u << n); ++p)
    if (p & (1u << i))
      table |= 1ull << p;
  return table;
}

llvm::Value *buildBitwise(llvm::IRBuilder<> &builder, uint64_t table,
                          const std::vector<llvm::Value *> &variables) {
  unsigned n = variables.size();
  table &= fullTable(n);
  std::vector<unsigned> used;
  for (unsigned i = 0; i < n; ++i)
    if (dependsOn(table, i, n))
      used.push_back(i);
  if (used.size() <= 2) {
    unsigned a = used.empty() ? 0 : used[0], b = used.size() < 2 ? a : used[1];
    // Project onto (a, b): the value at a point with only those variables set.
    unsigned small = 0;
    for (unsigned p = 0; p < 4; ++p) {
      unsigned point = ((p & 1) << a) | ((p >> 1) << b);
      small |= ((table >> point) & 1) << p;
    }
    if (used.size() < 2)   // b == a: the table's bits 1 and 2 are never both meaningful
      small = (small & 1) * 0x5 | ((small >> 3) & 1) * 0xA;
    return twoVariables(builder, small, variables[a], variables[b]);
  }
  uint64_t anf = algebraicNormalForm(table, n);
  uint64_t complement = algebraicNormalForm(~table & fullTable(n), n);
  if (anfCost(complement) + 1 < anfCost(anf))
    return builder.CreateNot(buildAnf(builder, complement, variables));
  return buildAnf(builder, anf, variables);
}

} // namespace hoist::deobf
