#include "Brighten/FoldNanPropagation.h"

#include "Passes/Passes.h"

#include <llvm/ADT/APFloat.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>

#include <optional>

namespace hoist {
namespace {

using namespace llvm::PatternMatch;

/// X when `select` tests `fcmp uno X, X` or `fcmp uno X, 0.0` (X is a NaN), else null.
llvm::Value *nanTested(const llvm::SelectInst &select) {
  llvm::FCmpInst::Predicate predicate;
  llvm::Value *left = nullptr, *right = nullptr;
  if (!match(select.getCondition(), m_FCmp(predicate, m_Value(left), m_Value(right))) ||
      predicate != llvm::FCmpInst::FCMP_UNO)
    return nullptr;
  if (left == right || (llvm::isa<llvm::Constant>(right) && match(right, m_AnyZeroFP())))
    return left;
  return nullptr;
}

/// Whether `a` and `b` are the same bits, one perhaps a bitcast of the other.
bool sameBits(const llvm::Value *a, const llvm::Value *b) {
  auto strip = [](const llvm::Value *value) {
    while (const auto *cast = llvm::dyn_cast<llvm::BitCastOperator>(value))
      value = cast->getOperand(0);
    return value;
  };
  return strip(a) == strip(b);
}

/// The element type's quiet bit (bit 22 of a float, 51 of a double) in `type`'s integer
/// lanes, or nullopt for other types.
std::optional<llvm::APInt> quietBit(const llvm::Type *type) {
  const llvm::Type *element = type->getScalarType();
  if (element->isIntegerTy(32))
    return llvm::APInt(32, 1) << 22;
  if (element->isIntegerTy(64))
    return llvm::APInt(64, 1) << 51;
  return std::nullopt;
}

/// `type` with integer lanes of the same width (the selects are on either view).
const llvm::Type *integerView(const llvm::Type *type) {
  return type->isFPOrFPVectorTy() ? llvm::Type::getIntNTy(type->getContext(),
                                                         type->getScalarSizeInBits())
                                  : type;
}

/// Whether `value` is x86's default NaN (sign set, quiet), as integer or floating-point lanes.
bool isDefaultNan(const llvm::Value *value, const llvm::Type *type) {
  std::optional<llvm::APInt> quiet = quietBit(integerView(type));
  if (!quiet)
    return false;
  const llvm::APFloat *number = nullptr;
  if (type->isFPOrFPVectorTy())
    return match(value, m_APFloatAllowPoison(number)) &&
           number->bitcastToAPInt() ==
               llvm::APInt::getHighBitsSet(quiet->getBitWidth(),
                                           quiet->getBitWidth() - quiet->logBase2());
  // Sign, exponent and quiet bit: 0xffc00000 for a float, 0xfff8000000000000 for a double.
  unsigned width = quiet->getBitWidth();
  llvm::APInt nan = llvm::APInt::getHighBitsSet(width, width - quiet->logBase2());
  return match(value, m_SpecificIntAllowPoison(nan));
}

/// The arithmetic R whose result `value` is (its bits, or the select that gives a NaN result
/// the default NaN), or null.
llvm::Instruction *arithmeticResult(llvm::Value *value) {
  while (auto *cast = llvm::dyn_cast<llvm::BitCastOperator>(value))
    value = cast->getOperand(0);
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(value)) {
    llvm::Value *tested = nanTested(*select);
    if (!tested || !isDefaultNan(select->getTrueValue(), select->getType()) ||
        !sameBits(select->getFalseValue(), tested))
      return nullptr;
    value = tested;
  }
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction)
    return nullptr;
  switch (instruction->getOpcode()) {
  case llvm::Instruction::FAdd:
  case llvm::Instruction::FSub:
  case llvm::Instruction::FMul:
  case llvm::Instruction::FDiv:
    return instruction;
  default:
    break;
  }
  if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(instruction);
      call && call->getIntrinsicID() == llvm::Intrinsic::sqrt)
    return instruction;
  return nullptr;
}

/// What `select` (one of the shapes FoldNanPropagation.h lists) stands for without x86's NaN
/// rules, or null.
llvm::Value *withoutNanRules(llvm::SelectInst &select) {
  llvm::Value *tested = nanTested(select);
  if (!tested)
    return nullptr;
  llvm::Value *whenNan = select.getTrueValue(), *otherwise = select.getFalseValue();
  // The result's own NaN made the default one.
  if (isDefaultNan(whenNan, select.getType()) && sameBits(otherwise, tested) &&
      arithmeticResult(tested))
    return otherwise;
  // An operand's NaN quietened, else the rest of the chain over an operation on it.
  llvm::Value *bits = nullptr;
  const llvm::Value *quietened = whenNan;
  while (const auto *cast = llvm::dyn_cast<llvm::BitCastOperator>(quietened))
    quietened = cast->getOperand(0);
  std::optional<llvm::APInt> quiet = quietBit(quietened->getType());
  if (quiet && match(quietened, m_c_Or(m_Value(bits), m_SpecificIntAllowPoison(*quiet))) &&
      sameBits(bits, tested)) {
    llvm::Value *rest = otherwise;
    while (auto *inner = llvm::dyn_cast<llvm::SelectInst>(rest)) {
      llvm::Value *innerTested = nanTested(*inner);
      if (!innerTested || isDefaultNan(inner->getTrueValue(), inner->getType()))
        break;
      rest = inner->getFalseValue();
    }
    llvm::Instruction *operation = arithmeticResult(rest);
    if (!operation || llvm::none_of(operation->operands(), [&](const llvm::Value *operand) {
          return sameBits(operand, tested);
        }))
      return nullptr;
    // The first operand's NaN wins over the second's. x86 returns a lone NaN operand
    // quietened whichever operand it is, so the test of the second operand can go; the test
    // of the first stays unless it is the only operand (fmul x, x): LLVM may swap the
    // operands of `fadd` and leaves open which of two NaNs it returns.
    bool testsFirstOperand = llvm::none_of(select.users(), [&](const llvm::User *user) {
      const auto *outer = llvm::dyn_cast<llvm::SelectInst>(user);
      return outer && outer->getFalseValue() == &select && nanTested(*outer);
    });
    bool onlyOperand = llvm::all_of(operation->operands(), [&](const llvm::Value *operand) {
      return llvm::isa<llvm::Function>(operand) || sameBits(operand, tested);
    });
    return !testsFirstOperand || onlyOperand ? otherwise : nullptr;
  }
  // A conversion of a NaN (cvtss2sd keeps the payload, quietened): LLVM's conversion.
  if ((llvm::isa<llvm::FPExtInst>(otherwise) || llvm::isa<llvm::FPTruncInst>(otherwise)) &&
      llvm::cast<llvm::Instruction>(otherwise)->getOperand(0) == tested)
    return otherwise;
  return nullptr;
}

} // namespace

llvm::PreservedAnalyses FoldNanPropagationPass::run(llvm::Function &function,
                                                    llvm::FunctionAnalysisManager &) {
  if (!function.hasFnAttribute(BrightenedAttribute))
    return llvm::PreservedAnalyses::all();
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (llvm::Instruction &instruction : llvm::make_early_inc_range(llvm::instructions(function))) {
      auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction);
      llvm::Value *plain = select ? withoutNanRules(*select) : nullptr;
      if (!plain)
        continue;
      select->replaceAllUsesWith(plain);
      select->eraseFromParent();
      again = changed = true;
    }
  }
  return preservedAfter(changed);
}

} // namespace hoist
