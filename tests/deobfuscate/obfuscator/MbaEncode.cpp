// MBA encoding. A linear MBA is a sum of integer multiples of bitwise functions of the
// operands; on n-bit words it equals sum_k 2^k * s(a_k, b_k), where s is the same sum taken
// over the four values of one bit pair. So any operator whose per-bit value s is known (add:
// a+b, sub: a-b, and, or, xor) is encoded by picking a few bitwise functions with random
// coefficients and making up the difference with the four minterms (~(a|b), a&~b, ~a&b,
// a&b). Multiplication gets the polynomial identity a*b = (a&b)*(a|b) + (a&~b)*(~a&b), and
// some linear encodings a zero identity times an operand, which makes them non-linear.
#include "Obfuscator.h"
#include "Deobf/Passes/BitwiseBuilder.h"


#include <array>
#include <optional>

namespace obfuscator {
namespace {

using llvm::Value;

/// Per-bit values at (a,b) = (0,0), (1,0), (0,1), (1,1).
using Signature = std::array<int64_t, 4>;

/// The bitwise function of a and b whose truth table is `table` (bit i: the value at point i
/// in Signature order), written by the deobfuscator's own builder (lib/Deobf/Passes).
Value *bitwise(llvm::IRBuilder<> &b, unsigned table, Value *x, Value *y) {
  return hoist::deobf::buildBitwise(b, table, {x, y});
}

std::optional<Signature> signatureOf(llvm::Instruction::BinaryOps op) {
  switch (op) {
  case llvm::Instruction::Add: return Signature{0, 1, 1, 2};
  case llvm::Instruction::Sub: return Signature{0, 1, -1, 0};
  case llvm::Instruction::And: return Signature{0, 0, 0, 1};
  case llvm::Instruction::Or: return Signature{0, 1, 1, 1};
  case llvm::Instruction::Xor: return Signature{0, 1, 1, 0};
  default: return std::nullopt;
  }
}

/// Adds coefficient * term to sum (sum may be null: the first term).
Value *accumulate(llvm::IRBuilder<> &b, Value *sum, int64_t coefficient, Value *term) {
  if (coefficient == 0)
    return sum;
  Value *scaled = coefficient == 1    ? term
                  : coefficient == -1 ? b.CreateNeg(term)
                                      : b.CreateMul(term, llvm::ConstantInt::getSigned(
                                                              term->getType(), coefficient));
  return sum ? b.CreateAdd(sum, scaled) : scaled;
}

Value *encodeLinear(llvm::IRBuilder<> &b, Signature target, Value *x, Value *y, Random &random) {
  Value *sum = nullptr;
  // Three random bitwise terms with random coefficients...
  for (int i = 0; i < 3; ++i) {
    unsigned table = 1 + random.below(15);
    int64_t coefficient = int64_t(random.below(9)) - 4;
    if (coefficient == 0)
      continue;
    for (unsigned point = 0; point < 4; ++point)
      target[point] -= coefficient * ((table >> point) & 1);
    sum = accumulate(b, sum, coefficient, bitwise(b, table, x, y));
  }
  // ... and the minterms make up the rest.
  for (unsigned point = 0; point < 4; ++point)
    sum = accumulate(b, sum, target[point], bitwise(b, 1u << point, x, y));
  return sum ? sum : llvm::ConstantInt::get(x->getType(), 0);
}

/// (a|b) - (a&b) - (a^b): zero for all a, b.
Value *zeroIdentity(llvm::IRBuilder<> &b, Value *x, Value *y) {
  return b.CreateSub(b.CreateSub(b.CreateOr(x, y), b.CreateAnd(x, y)), b.CreateXor(x, y));
}

} // namespace

bool encodeMba(llvm::Function &function, Random &random) {
  return rewriteIntegerOperators(function, [&](llvm::IRBuilder<> &builder,
                                               llvm::BinaryOperator &binary) -> Value * {
    Value *x = binary.getOperand(0), *y = binary.getOperand(1);
    if (binary.getOpcode() == llvm::Instruction::Mul) {
      if (llvm::isa<llvm::Constant>(x) || llvm::isa<llvm::Constant>(y))
        return nullptr;   // scaling by a constant stays: it is how linear MBAs are written
      return builder.CreateAdd(
          builder.CreateMul(builder.CreateAnd(x, y), builder.CreateOr(x, y)),
          builder.CreateMul(builder.CreateAnd(x, builder.CreateNot(y)),
                            builder.CreateAnd(builder.CreateNot(x), y)));
    }
    std::optional<Signature> target = signatureOf(binary.getOpcode());
    if (!target)
      return nullptr;
    Value *encoded = encodeLinear(builder, *target, x, y, random);
    if (random.below(4) == 0)
      encoded = builder.CreateAdd(encoded, builder.CreateMul(zeroIdentity(builder, x, y), y));
    return encoded;
  });
}

} // namespace obfuscator
