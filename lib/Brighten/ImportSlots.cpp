#include "Brighten/ImportSlots.h"

#include "Brighten/CallShim.h"
#include "Brighten/ImportPrototypes.h"
#include "Brighten/InferredImports.h"
#include "Lift/CallTargets.h"
#include "hoist/Image.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

#include <variant>

namespace hoist {
namespace {

/// Whether `import` is a function for certain: its prototype is known, or brightening
/// inferred one from its calls (InferredImports.h).
bool isFunctionImport(const llvm::Module &module, const Import &import) {
  if (std::holds_alternative<ImportPrototype>(importPrototype(import.name, import.library)))
    return true;
  const llvm::Function *declared = module.getFunction(importFunctionName(import));
  return declared && declared->hasFnAttribute(InferredPrototypeAttribute);
}

/// The object an import's slot points to, by name: the recompiled program's loader binds it
/// as the original's did (the library's own definition, or one that interposes it).
llvm::Constant *objectByName(llvm::Module &module, const Import &import) {
  return module.getOrInsertGlobal(import.name, llvm::Type::getInt8Ty(module.getContext()));
}

} // namespace

std::optional<uint64_t> loadedSlot(const llvm::LoadInst &load) {
  const auto *cast = llvm::dyn_cast<llvm::Operator>(load.getPointerOperand());
  const auto *constant = cast && cast->getOpcode() == llvm::Instruction::IntToPtr
                             ? llvm::dyn_cast<llvm::ConstantInt>(cast->getOperand(0))
                             : nullptr;
  if (!constant)
    return std::nullopt;
  return constant->getZExtValue();
}

void replaceSlotLoads(llvm::ArrayRef<std::pair<llvm::LoadInst *, llvm::Constant *>> loads) {
  for (auto [load, value] : loads) {
    llvm::Value *pointer = load->getPointerOperand();
    load->replaceAllUsesWith(value);
    load->eraseFromParent();
    if (auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(pointer); cast && cast->use_empty())
      cast->eraseFromParent();
  }
}

bool replaceImportSlotLoads(llvm::Function &function, const Image &image,
                            bool unknownPrototypesToo) {
  llvm::SmallVector<std::pair<llvm::LoadInst *, const Import *>> loads;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    llvm::Type *type = load ? load->getType() : nullptr;
    if (!load || !(type->isPointerTy() || type->isIntegerTy(64) || type->isIntegerTy(32)))
      continue;
    std::optional<uint64_t> address = loadedSlot(*load);
    const Import *import = address ? image.importAtSlot(*address) : nullptr;
    if (!import)
      continue;
    // An object's slot holds a whole address, never read in halves.
    if (import->object ? !type->isIntegerTy(32)
                       : unknownPrototypesToo || isFunctionImport(*function.getParent(), *import))
      loads.emplace_back(load, import);
  }
  llvm::SmallVector<std::pair<llvm::LoadInst *, llvm::Constant *>> replaced;
  for (auto [load, import] : loads) {
    llvm::Constant *address = import->object ? objectByName(*function.getParent(), *import)
                                             : declareImport(*function.getParent(), *import);
    llvm::Type *type = load->getType();
    if (!type->isPointerTy())
      address = llvm::ConstantExpr::getTrunc(
          llvm::ConstantExpr::getPtrToInt(address, llvm::Type::getInt64Ty(function.getContext())),
          type);
    replaced.emplace_back(load, address);
  }
  replaceSlotLoads(replaced);
  return !loads.empty();
}

bool readsImportSlot(const llvm::Function &lifted, const Image &image) {
  if (lifted.arg_size() < 2)
    return false;
  return llvm::any_of(lifted.getArg(1)->users(), [&](const llvm::User *user) {
    const auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
    const auto *offset =
        gep && gep->getNumIndices() == 1 ? llvm::dyn_cast<llvm::ConstantInt>(*gep->idx_begin())
                                         : nullptr;
    return offset && image.importAtSlot(offset->getZExtValue());
  });
}

llvm::Function *importAddressed(llvm::Value *value) {
  value = value->stripPointerCasts();
  if (auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(value);
      expression && (expression->getOpcode() == llvm::Instruction::Trunc ||
                     expression->getOpcode() == llvm::Instruction::PtrToInt))
    return importAddressed(expression->getOperand(0));
  auto *function = llvm::dyn_cast<llvm::Function>(value);
  return function && function->hasFnAttribute("hoist-import") ? function : nullptr;
}

void nameImportAddresses(llvm::Module &module, CallingConvention convention) {
  llvm::SmallVector<llvm::Function *> imports;
  for (llvm::Function &function : module)
    if (function.hasFnAttribute("hoist-import"))
      imports.push_back(&function);
  auto isAddress = [](llvm::Use &use) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(use.getUser());
    return !call || !call->isCallee(&use);
  };
  for (llvm::Function *import : imports) {
    if (llvm::none_of(import->uses(), isAddress))
      continue;
    std::variant<KnownCallee, std::string> callee = libraryCallee(
        module, import->getFnAttribute("hoist-import").getValueAsString(),
        importLibrary(*import), convention);
    if (auto *known = std::get_if<KnownCallee>(&callee))
      import->replaceUsesWithIf(known->function, isAddress);
  }
}

} // namespace hoist
