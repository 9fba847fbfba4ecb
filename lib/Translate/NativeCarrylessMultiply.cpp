#include "Translate/NativeCarrylessMultiply.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/TargetParser/Host.h>

namespace hoist {
namespace {

using namespace llvm::PatternMatch;

/// Whether `shift` is the vector <0, 1, ..., 63> of i64 (every bit position of a qword).
bool isEveryBitPosition(llvm::Value *shift) {
  auto *constant = llvm::dyn_cast<llvm::Constant>(shift);
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(shift->getType());
  if (!constant || !type || type->getNumElements() != 64 ||
      !type->getElementType()->isIntegerTy(64))
    return false;
  for (unsigned k = 0; k < 64; ++k) {
    auto *element = llvm::dyn_cast_or_null<llvm::ConstantInt>(constant->getAggregateElement(k));
    if (!element || element->getZExtValue() != k)
      return false;
  }
  return true;
}

/// One half of a generic carry-less product of `a` and `b`: which qword, and the operands.
struct ProductHalf {
  unsigned qword;   // 0: low, 1: high
  llvm::Value *a, *b;
};

std::optional<ProductHalf> matchProductHalf(llvm::Instruction &reduce) {
  llvm::Value *bits = nullptr, *shifted = nullptr;
  if (!match(&reduce, m_Intrinsic<llvm::Intrinsic::vector_reduce_xor>(
                          m_Select(m_BitCast(m_Value(bits)), m_Value(shifted), m_Zero()))) ||
      !bits->getType()->isIntegerTy(64))
    return std::nullopt;
  llvm::Value *copies = nullptr, *shift = nullptr;
  unsigned qword = 0;
  if (match(shifted, m_Shl(m_Value(copies), m_Value(shift))))
    qword = 0;
  else if (match(shifted, m_Intrinsic<llvm::Intrinsic::fshl>(m_Zero(), m_Value(copies),
                                                             m_Value(shift))))
    qword = 1;
  else
    return std::nullopt;
  if (!isEveryBitPosition(shift))
    return std::nullopt;
  llvm::Value *a = llvm::getSplatValue(copies);
  if (!a || !a->getType()->isIntegerTy(64))
    return std::nullopt;
  return ProductHalf{qword, a, bits};
}

} // namespace

bool hostHasCarrylessMultiply() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto found = features.find("pclmul");
  return found != features.end() && found->second;
}

unsigned useNativeCarrylessMultiply(llvm::Module &module) {
  std::vector<std::pair<llvm::Instruction *, ProductHalf>> halves;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (std::optional<ProductHalf> half = matchProductHalf(instruction))
        halves.emplace_back(&instruction, *half);
  for (auto &[reduce, half] : halves) {
    llvm::IRBuilder<> ir(reduce);
    auto *qwords = llvm::FixedVectorType::get(ir.getInt64Ty(), 2);
    llvm::Value *zero = llvm::Constant::getNullValue(qwords);
    // Immediate 0: the low qword of each source, the operands' positions in the vectors.
    llvm::Value *product = ir.CreateIntrinsic(
        llvm::Intrinsic::x86_pclmulqdq, {},
        {ir.CreateInsertElement(zero, half.a, uint64_t(0)),
         ir.CreateInsertElement(zero, half.b, uint64_t(0)), ir.getInt8(0)});
    reduce->replaceAllUsesWith(ir.CreateExtractElement(product, uint64_t(half.qword)));
    reduce->eraseFromParent();
  }
  return unsigned(halves.size());
}

} // namespace hoist
