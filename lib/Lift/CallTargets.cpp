#include "Lift/CallTargets.h"

#include "Discover/FunctionExplorer.h"
#include "Discover/IndirectJumpAnalysis.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>

namespace hoist {

std::optional<uint64_t> ownDefinition(const Image &image, const Import &import) {
  if (import.definedAt && image.isExecutable(*import.definedAt))
    return import.definedAt;
  return std::nullopt;
}

CallTarget resolveCallTarget(const Image &image, const Instr &instr, llvm::Value *destination) {
  CallTarget result;
  bool throughSlot = false;
  std::optional<uint64_t> address;
  if (std::optional<uint64_t> direct = directTarget(instr, &throughSlot)) {
    if (throughSlot) {
      const Import *import = image.importAtSlot(*direct);
      if (import && !ownDefinition(image, *import)) {
        result.kind = CallTarget::Kind::Import;
        result.address = *direct;
        result.throughSlot = true;
        result.import = import;
        return result;
      }
      address = import ? ownDefinition(image, *import) : constantPointerAt(image, *direct);
    } else {
      address = direct;
    }
  } else if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(destination)) {
    // A register the lifter folded to a constant in this block: `mov rax, imm` or
    // `lea rax, [rip+f]` before `call rax`.
    address = constant->getZExtValue();
  }
  if (!address)
    return result;
  if (const Import *import = image.importAtStub(*address)) {
    if (std::optional<uint64_t> definition = ownDefinition(image, *import)) {
      address = definition;
    } else {
      result.address = *address;
      result.kind = CallTarget::Kind::Import;
      result.import = import;
      return result;
    }
  }
  result.address = *address;
  if (image.isExecutable(*address))
    result.kind = CallTarget::Kind::Lifted;
  return result;
}

std::string importFunctionName(const Import &import) {
  if (import.library.empty())
    return "import." + import.name;
  return "import." + import.library + "!" + import.name;
}

namespace {

llvm::FunctionType *stateFunctionType(llvm::LLVMContext &context) {
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  return llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr}, false);
}

} // namespace

llvm::Function *declareImport(llvm::Module &module, const Import &import) {
  std::string name = importFunctionName(import);
  if (llvm::Function *existing = module.getFunction(name))
    return existing;
  auto *function = llvm::Function::Create(stateFunctionType(module.getContext()),
                                          llvm::GlobalValue::ExternalLinkage, name, module);
  function->addFnAttr("hoist-import", import.name);
  if (!import.library.empty())
    function->addFnAttr("hoist-library", import.library);
  if (!import.recognizedFrom.empty())
    function->addFnAttr("hoist-recognized", import.recognizedFrom);
  return function;
}

llvm::StringRef importLibrary(const llvm::Function &function) {
  llvm::Attribute library = function.getFnAttribute("hoist-library");
  return library.isValid() ? library.getValueAsString() : llvm::StringRef();
}

namespace {

/// The name `entry`'s function has or gets in `module`: liftedFunctionName's, unless another
/// function already has it (a symbol that is literally another one's suffixed name, `f.1130`,
/// or a declaration a later stage made); then `fn_<hex>`, which symbols never take.
std::string nameInModule(const llvm::Module &module, const Image &image, uint64_t entry) {
  std::string name = liftedFunctionName(image, entry);
  const llvm::Function *holder = module.getFunction(name);
  return !holder || entryAddressOf(*holder) == entry ? name : liftedFunctionName(entry);
}

} // namespace

llvm::Function *findLiftedFunction(const llvm::Module &module, const Image &image, uint64_t entry) {
  llvm::Function *function = module.getFunction(nameInModule(module, image, entry));
  return function && entryAddressOf(*function) == entry ? function : nullptr;
}

llvm::Function *declareLiftedFunction(llvm::Module &module, const Image &image, uint64_t entry) {
  return declareLiftedFunction(module, entry, nameInModule(module, image, entry));
}

llvm::Function *declareLiftedFunction(llvm::Module &module, uint64_t entry, const std::string &name) {
  if (llvm::Function *existing = module.getFunction(name))
    return existing;
  auto *function = llvm::Function::Create(stateFunctionType(module.getContext()),
                                          llvm::GlobalValue::ExternalLinkage, name, module);
  setEntryAddress(*function, entry);
  function->getArg(0)->setName("state");
  function->getArg(1)->setName("mem");
  // Both pointers noalias noundef, as one list: adding the four attributes one by one rebuilt
  // and uniqued the list four times (1.7% of the raw lift, a declaration per callee).
  llvm::LLVMContext &context = module.getContext();
  llvm::AttrBuilder pointer(context);
  pointer.addAttribute(llvm::Attribute::NoAlias).addAttribute(llvm::Attribute::NoUndef);
  llvm::AttributeSet pointerAttributes = llvm::AttributeSet::get(context, pointer);
  function->setAttributes(llvm::AttributeList::get(context, llvm::AttributeSet(),
                                                   llvm::AttributeSet(),
                                                   {pointerAttributes, pointerAttributes}));
  return function;
}


} // namespace hoist
