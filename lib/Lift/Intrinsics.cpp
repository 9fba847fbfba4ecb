#include "Lift/Intrinsics.h"

namespace hoist {

const char *intrinsicName(Intrinsic intrinsic) {
  switch (intrinsic) {
  case Intrinsic::Call:
    return "__hoist_call";
  case Intrinsic::Jmp:
    return "__hoist_jmp";
  case Intrinsic::Unsupported:
    return "__hoist_unsupported";
  case Intrinsic::Trap:
    return "__hoist_trap";
  }
  return "__hoist_unknown";
}

llvm::FunctionCallee getIntrinsic(llvm::Module &module, Intrinsic intrinsic) {
  return getRuntimeIntrinsic(module, intrinsicName(intrinsic));
}

llvm::FunctionCallee getRuntimeIntrinsic(llvm::Module &module, llvm::StringRef name) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {ptr, ptr, llvm::Type::getInt64Ty(context)}, false);
  return module.getOrInsertFunction(name, type);
}

} // namespace hoist
