#include "Arch/StateLayout.h"

#include <array>

namespace hoist {

const char *const X86_64DataLayout =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";

static const std::array<StateFieldInfo, HOIST_FIELD_COUNT> Fields = {{
#define HOIST_STATE_REG(Name, Kind) {#Name, StateKind::Kind, 1},
#define HOIST_STATE_ARRAY(Name, Kind, Count) {#Name, StateKind::Kind, Count},
#include "hoist/State.def"
}};

const StateFieldInfo &stateField(HoistStateField field) { return Fields[field]; }

static llvm::Type *kindType(llvm::LLVMContext &context, StateKind kind) {
  switch (kind) {
  case StateKind::I8:
    return llvm::Type::getInt8Ty(context);
  case StateKind::I16:
    return llvm::Type::getInt16Ty(context);
  case StateKind::I32:
    return llvm::Type::getInt32Ty(context);
  case StateKind::I64:
    return llvm::Type::getInt64Ty(context);
  case StateKind::V256:
    return llvm::ArrayType::get(llvm::Type::getInt64Ty(context), 4);
  case StateKind::V512:
    return llvm::ArrayType::get(llvm::Type::getInt64Ty(context), 8);
  case StateKind::F80:
    return llvm::Type::getX86_FP80Ty(context);
  }
  return nullptr;
}

llvm::StructType *getStateType(llvm::LLVMContext &context) {
  if (auto *existing = llvm::StructType::getTypeByName(context, "hoist.State"))
    return existing;
  std::vector<llvm::Type *> elements;
  for (const StateFieldInfo &field : Fields) {
    llvm::Type *type = kindType(context, field.kind);
    elements.push_back(field.count == 1 ? type : llvm::ArrayType::get(type, field.count));
  }
  return llvm::StructType::create(context, elements, "hoist.State");
}

} // namespace hoist
