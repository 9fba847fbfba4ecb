#include "Brighten/ImageData.h"
#include "Brighten/IntToPtrRewrite.h"

#include "Passes/Passes.h"
#include "hoist/Image.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>

namespace hoist {
namespace {

using namespace llvm::PatternMatch;

constexpr unsigned MaxAddressDepth = 8;

/// Splits `address` into constant + rest through add and disjoint or; rest is null when the
/// address is the constant alone. Returns false when no constant term is found.
bool splitConstant(llvm::Value *address, uint64_t &constant, llvm::Value *&rest,
                   llvm::IRBuilder<> &builder, unsigned depth) {
  if (auto *value = llvm::dyn_cast<llvm::ConstantInt>(address)) {
    constant = value->getZExtValue();
    rest = nullptr;
    return true;
  }
  llvm::Value *left = nullptr, *right = nullptr;
  if (depth > MaxAddressDepth ||
      !(match(address, m_Add(m_Value(left), m_Value(right))) ||
        match(address, m_DisjointOr(m_Value(left), m_Value(right)))))
    return false;
  llvm::Value *inner = nullptr;
  if (splitConstant(right, constant, inner, builder, depth + 1)) {
    rest = inner ? builder.CreateAdd(left, inner) : left;
    return true;
  }
  if (splitConstant(left, constant, inner, builder, depth + 1)) {
    rest = inner ? builder.CreateAdd(inner, right) : right;
    return true;
  }
  return false;
}

/// The private constant global holding `section`'s bytes (zero past the file's).
llvm::GlobalVariable *sectionGlobal(llvm::Module &module, const Image &image,
                                    const Section &section) {
  std::string name = "image" + section.name;
  if (llvm::GlobalVariable *existing = module.getNamedGlobal(name))
    return existing;
  std::vector<uint8_t> bytes(section.size, 0);
  image.read(section.address, bytes.data(), bytes.size());
  auto *initializer = llvm::ConstantDataArray::get(module.getContext(), llvm::ArrayRef(bytes));
  auto *global = new llvm::GlobalVariable(module, initializer->getType(), true,
                                          llvm::GlobalValue::PrivateLinkage, initializer, name);
  global->setAlignment(llvm::Align(16));
  return global;
}

} // namespace

llvm::Constant *ImageDataPass::imagePointer(llvm::Function &function, uint64_t address) const {
  const Section *section = image_.sectionAt(address);
  if (!section)
    return nullptr;
  if (section->writable || section->executable) {
    function.addFnAttr(ImageDataAttribute, "0x" + llvm::utohexstr(address, true));
    return nullptr;
  }
  llvm::GlobalVariable *global = sectionGlobal(*function.getParent(), image_, *section);
  return llvm::ConstantExpr::getGetElementPtr(
      global->getValueType(), global,
      llvm::ArrayRef<llvm::Constant *>{
          llvm::ConstantInt::get(llvm::Type::getInt64Ty(function.getContext()), 0),
          llvm::ConstantInt::get(llvm::Type::getInt64Ty(function.getContext()),
                                 address - section->address)});
}

llvm::PreservedAnalyses ImageDataPass::run(llvm::Function &function,
                                           llvm::FunctionAnalysisManager &) {
  bool changed = false;
  // Constant addresses arrive folded: `load i64, ptr inttoptr (i64 0x4018 to ptr)`.
  for (llvm::Instruction &instruction : llvm::instructions(function))
    for (llvm::Use &operand : instruction.operands()) {
      auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(operand.get());
      if (!expression || expression->getOpcode() != llvm::Instruction::IntToPtr)
        continue;
      auto *address = llvm::dyn_cast<llvm::ConstantInt>(expression->getOperand(0));
      if (llvm::Constant *pointer = address ? imagePointer(function, address->getZExtValue())
                                            : nullptr) {
        operand.set(pointer);
        changed = true;
      }
    }
  changed |= rewriteIntToPtrs(
      function, [&](llvm::IntToPtrInst &cast, llvm::IRBuilder<> &builder) -> llvm::Value * {
        uint64_t constant = 0;
        llvm::Value *rest = nullptr;
        if (!splitConstant(cast.getOperand(0), constant, rest, builder, 0))
          return nullptr;
        llvm::Constant *base = imagePointer(function, constant);
        if (!base || !rest)
          return base;
        return builder.CreateGEP(builder.getInt8Ty(), base, rest);
      });
  return preservedAfter(changed);
}

} // namespace hoist
