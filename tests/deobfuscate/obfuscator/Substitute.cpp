// Instruction substitution: each integer add, sub, and, or, xor is replaced by one of a few
// equivalent forms, chosen at random. Only the original operators are rewritten (the new
// instructions are not substituted again), so the code grows by a small constant factor.
#include "Obfuscator.h"

namespace obfuscator {
namespace {

using llvm::Value;

Value *substitute(llvm::IRBuilder<> &b, llvm::Instruction::BinaryOps op, Value *x, Value *y,
                  unsigned variant) {
  switch (op) {
  case llvm::Instruction::Add:
    if (variant == 0)
      return b.CreateSub(x, b.CreateNeg(y));                          // x - (-y)
    return b.CreateAdd(b.CreateOr(x, y), b.CreateAnd(x, y));         // (x | y) + (x & y)
  case llvm::Instruction::Sub:
    if (variant == 0)
      return b.CreateAdd(x, b.CreateNeg(y));                          // x + (-y)
    return b.CreateAdd(b.CreateAdd(x, b.CreateNot(y)),                // x + ~y + 1
                       llvm::ConstantInt::get(x->getType(), 1));
  case llvm::Instruction::And:
    if (variant == 0)
      return b.CreateAnd(b.CreateXor(x, b.CreateNot(y)), x);          // (x ^ ~y) & x
    return b.CreateSub(b.CreateOr(b.CreateNot(x), y), b.CreateNot(x)); // (~x | y) - ~x
  case llvm::Instruction::Or:
    if (variant == 0)
      return b.CreateOr(b.CreateAnd(x, y), b.CreateXor(x, y));        // (x & y) | (x ^ y)
    return b.CreateAdd(b.CreateXor(x, y), b.CreateAnd(x, y));         // (x ^ y) + (x & y)
  case llvm::Instruction::Xor:
    if (variant == 0)                                                  // (~x & y) | (x & ~y)
      return b.CreateOr(b.CreateAnd(b.CreateNot(x), y), b.CreateAnd(x, b.CreateNot(y)));
    return b.CreateSub(b.CreateOr(x, y), b.CreateAnd(x, y));          // (x | y) - (x & y)
  default:
    return nullptr;
  }
}

} // namespace

bool substituteInstructions(llvm::Function &function, Random &random) {
  return rewriteIntegerOperators(function, [&](llvm::IRBuilder<> &builder,
                                               llvm::BinaryOperator &binary) {
    return substitute(builder, binary.getOpcode(), binary.getOperand(0), binary.getOperand(1),
                      random.below(2));
  });
}

} // namespace obfuscator
