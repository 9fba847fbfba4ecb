#include "Translate/BrightenedHalf.h"

#include "Brighten/Brighten.h"
#include "Brighten/CodePointers.h"
#include "Brighten/ImageData.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"
#include "Translate/ImportCalls.h"
#include "Translate/NonlocalJumps.h"
#include "hoist/Lifter.h"
#include "hoist/Optimize.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <set>

namespace hoist {
namespace {

llvm::Constant *originalAddress(llvm::LLVMContext &context, uint64_t address) {
  return llvm::ConstantExpr::getIntToPtr(
      llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), address),
      llvm::PointerType::getUnqual(context));
}

bool isCallee(const llvm::Use &use) {
  const auto *call = llvm::dyn_cast<llvm::CallBase>(use.getUser());
  return call && call->isCallee(&use);
}

/// The carried data (section globals, the copies of library objects an executable holds) is
/// the mapped image's: the State-form half reads and writes it there, and the runtime applied
/// the image's relocations and pointed the libraries at its copies.
void referToMappedData(llvm::Module &module, const Image &image) {
  std::vector<llvm::GlobalVariable *> carried;
  std::vector<std::pair<llvm::GlobalVariable *, uint64_t>> replaced;
  for (llvm::GlobalVariable &global : module.globals())
    if (std::optional<uint64_t> address = carriedGlobalAddress(global, image))
      replaced.emplace_back(&global, *address);
  for (const CopiedObject &copied : image.copiedObjects())
    if (llvm::GlobalVariable *object = module.getNamedGlobal(copied.name);
        object && object->isDeclaration())
      replaced.emplace_back(object, copied.address);
  for (auto [global, address] : replaced) {
    global->replaceAllUsesWith(originalAddress(module.getContext(), address));
    global->eraseFromParent();
  }
}

/// Where `use` is an operand of an instruction, a new instruction can go right before it (a
/// phi's operand: at the end of the block it comes from).
llvm::Instruction *insertionPointFor(llvm::Use &use) {
  auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
  if (!user)
    return nullptr;
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(user))
    return phi->getIncomingBlock(use)->getTerminator();
  return user;
}

/// Calls of imports go through the program's GOT slots, as the State-form half's do: the
/// runtime fills them with the version the original asked for, and with its own functions
/// where a library function must know the program's code (signal handlers, thread start
/// routines, longjmp).
void callImportsThroughSlots(llvm::Module &module, const Image &image) {
  std::map<std::string, uint64_t> slotByName;
  for (const Import &import : image.imports())
    if (!import.object && import.slotAddress)
      slotByName.emplace(import.name, import.slotAddress);
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic())
      continue;
    auto slot = slotByName.find(function.getName().str());
    if (slot == slotByName.end())
      continue;
    for (llvm::Use &use : llvm::make_early_inc_range(function.uses())) {
      llvm::Instruction *before = insertionPointFor(use);
      if (!before)
        continue;
      llvm::IRBuilder<> ir(before);
      use.set(ir.CreateLoad(ir.getPtrTy(), originalAddress(module.getContext(), slot->second),
                            function.getName() + ".slot"));
    }
  }
}

/// A code address read from data is called as it is: every original entry of the program is
/// callable from native code (patched into an entry to its State form, or the original code
/// itself), so the map of brightening (CodePointers.h), which traps on one not brightened,
/// becomes the identity.
void keepCodePointers(llvm::Module &module) {
  llvm::Function *map = module.getFunction(CodePointerName);
  if (!map)
    return;
  map->deleteBody();
  map->setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::IRBuilder<> ir(llvm::BasicBlock::Create(module.getContext(), "entry", map));
  ir.CreateRet(ir.CreateIntToPtr(map->getArg(0), ir.getPtrTy()));
}

/// Why `function`, brightened, must run in State form after all, or nullopt: it calls setjmp
/// or longjmp, which the runtime implements for lifted code (NonlocalJumps.h, a jmp_buf that
/// also holds guest registers), so a native one could not meet a State-form one.
std::optional<std::string> whyStateFormOnly(const llvm::Function &function, const Image &image) {
  if (entryAddressOf(function) == image.entryPoint())
    return std::string("the entry point, whose __libc_start_main is the runtime's");
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &instruction : block) {
      const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || !callee->isDeclaration())
        continue;
      llvm::StringRef name = callee->getName();
      if (isSetjmpImport(name) || name == "longjmp" || name == "_longjmp" || name == "siglongjmp" ||
          name == "__longjmp_chk")
        return ("calls " + name + ", which the runtime provides for State-form code").str();
    }
  return std::nullopt;
}

/// A weak import (`__gmon_start__`) may be missing: declared before brightening names it, as
/// extern_weak, so that the code's test of its address for null is kept, not folded to true
/// (callImportsThroughSlots then reads the slot, which the runtime leaves null).
void declareWeakImports(llvm::Module &module, const Image &image, const ElfProgram &program) {
  for (const Import &import : image.imports())
    if (!import.object && import.slotAddress && !program.filledBeforeStart(import.slotAddress) &&
        !module.getNamedValue(import.name))
      llvm::Function::Create(
          llvm::FunctionType::get(llvm::Type::getVoidTy(module.getContext()), false),
          llvm::GlobalValue::ExternalWeakLinkage, import.name, module);
}

} // namespace

llvm::Expected<BrightenedHalf> brightenHalf(const llvm::Module &lifted, const Image &image,
                                            const ElfProgram &program, bool dataAtOriginalAddresses,
                                            unsigned optLevel, DiagnosticSink &diagnostics) {
  BrightenedHalf half;
  half.module = llvm::CloneModule(lifted);
  llvm::Module &module = *half.module;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() && entryAddressOf(function))
      ++half.candidates;
  declareWeakImports(module, image, program);
  llvm::Expected<BrightenReport> report =
      brightenModule(module, image, CallingConvention::SysV, diagnostics, {},
                     {.dataAtOriginalAddresses = dataAtOriginalAddresses});
  if (!report)
    return report.takeError();

  std::map<llvm::Function *, uint64_t> native;
  for (const std::string &name : report->brightened)
    if (llvm::Function *function = module.getFunction(name))
      if (std::optional<uint64_t> entry = entryAddressOf(*function))
        native.emplace(function, *entry);
  llvm::LLVMContext &context = module.getContext();
  // Those that must stay in State form are called through their original entries, which the
  // runtime patches into entries from native code.
  for (auto it = native.begin(); it != native.end();) {
    auto [function, entry] = *it;
    std::optional<std::string> reason = whyStateFormOnly(*function, image);
    if (!reason) {
      ++it;
      continue;
    }
    diagnostics.warning(
        "recompile-state-form", entry,
        llvm::formatv("{0}: stays in State form: {1}", function->getName(), *reason));
    function->replaceAllUsesWith(originalAddress(context, entry));
    function->eraseFromParent();
    it = native.erase(it);
  }
  // A function's address is its original entry, as the State-form half and the data have it:
  // pointers compare the same on both sides, and a call through one enters the State form,
  // whose bridge calls the native function.
  for (auto [function, entry] : native)
    function->replaceUsesWithIf(originalAddress(context, entry),
                                [](llvm::Use &use) { return !isCallee(use); });
  // What stays lifted (declined functions, `.lifted` copies) is the other half's; brightened
  // functions call none of it (brightening declines their callers).
  std::vector<llvm::Function *> stateForm;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !native.count(&function) &&
        function.getName() != CodePointerName)
      stateForm.push_back(&function);
  for (llvm::Function *function : stateForm)
    function->deleteBody();
  for (llvm::Function *function : stateForm) {
    if (!function->use_empty())
      return makeError("{0}: the brightened function {1} still refers to the lifted {2} (a "
                       "Hoist bug)",
                       image.path(), function->user_back()->getName(), function->getName());
    function->eraseFromParent();
  }
  referToMappedData(module, image);
  callImportsThroughSlots(module, image);
  keepCodePointers(module);
  // Nothing outside refers to the rest by name: the other half refers to data by address.
  for (llvm::GlobalObject &object : module.global_objects())
    if (!object.isDeclaration())
      object.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (auto [function, entry] : native) {
    function->setName(llvm::formatv("hoist.brightened.{0:x-}", entry).str());
    function->setLinkage(llvm::GlobalValue::ExternalLinkage);
    function->setVisibility(llvm::GlobalValue::HiddenVisibility);
    half.nativeByEntry.emplace(entry, function->getName().str());
  }
  if (optLevel > 0)
    optimizeModule(module, &image, OptimizeOptions{.level = optLevel});
  if (llvm::verifyModule(module, &llvm::errs()))
    return makeError("{0}: the brightened half fails the LLVM verifier (a Hoist bug)",
                     image.path());
  return half;
}

void bridgeToBrightened(llvm::Module &lifted, const BrightenedHalf &half) {
  std::vector<std::pair<llvm::Function *, const std::string *>> bridged;
  for (llvm::Function &function : lifted) {
    if (function.isDeclaration())
      continue;
    std::optional<uint64_t> entry = entryAddressOf(function);
    auto native = entry ? half.nativeByEntry.find(*entry) : half.nativeByEntry.end();
    if (native != half.nativeByEntry.end())
      bridged.emplace_back(&function, &native->second);
  }
  for (auto [function, name] : bridged) {
    // Declared with its brightened type, so that the declaration is the same symbol.
    const llvm::Function *definition = half.module->getFunction(*name);
    llvm::FunctionCallee native = lifted.getOrInsertFunction(*name, definition->getFunctionType());
    auto *declaration = llvm::cast<llvm::Function>(native.getCallee());
    declaration->setVisibility(llvm::GlobalValue::HiddenVisibility);
    defineBrightenedBridge(*function, *declaration);
  }
}

bool stateFormUses(const llvm::Module &lifted, llvm::StringRef name) {
  for (const llvm::Function &function : lifted) {
    if (!function.isDeclaration() ||
        function.getFnAttribute("hoist-import").getValueAsString() != name)
      continue;
    for (const llvm::User *user : function.users())
      if (llvm::isa<llvm::Instruction>(user) || !user->use_empty())
        return true;
  }
  return false;
}

} // namespace hoist
