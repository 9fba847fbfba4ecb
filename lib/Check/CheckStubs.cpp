#include "Check/CheckStubs.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>

namespace hoist::check {
namespace {

/// The arguments of an import a stub records: what System V passes in registers and beyond,
/// as far as a trial's calls need (TrialRuntime.cpp reads as many from State).
constexpr size_t MaxIntegerArguments = 16;
constexpr size_t MaxFloatArguments = 8;

/// The callbacks of TrialRuntime.cpp, declared in a module.
llvm::FunctionCallee brightenedImportCallback(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *ptr = llvm::PointerType::getUnqual(context);
  return module.getOrInsertFunction("hoist_check_brightened_import", i64, i64, ptr);
}

llvm::FunctionCallee liftedImportCallback(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  return module.getOrInsertFunction("hoist_check_lifted_import", llvm::Type::getVoidTy(context),
                                    ptr, ptr, llvm::Type::getInt64Ty(context));
}

llvm::FunctionCallee endCallback(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  return module.getOrInsertFunction("hoist_check_end", llvm::Type::getVoidTy(context),
                                    llvm::Type::getInt64Ty(context));
}

bool isCallback(const llvm::Function &function) {
  return function.getName().starts_with("hoist_check_");
}

bool performsOperation(llvm::StringRef name) {
  // mempcpy too: LLVM rewrites it into a memcpy, which the brightened run then performs.
  return name == "memcpy" || name == "memmove" || name == "memset" || name == "mempcpy" ||
         name == "__memcpy_chk" || name == "__memmove_chk" || name == "__memset_chk" ||
         name == "__mempcpy_chk";
}

ImportPrototype prototypeOf(const llvm::Function &declaration) {
  ImportPrototype prototype;
  prototype.name = declaration.getName().str();
  prototype.performs = performsOperation(declaration.getName());
  prototype.noReturn = declaration.doesNotReturn();
  for (llvm::Type *parameter : declaration.getFunctionType()->params()) {
    if ((parameter->isIntegerTy() || parameter->isPointerTy()) &&
        prototype.integerBits.size() == MaxIntegerArguments)
      continue;
    if ((parameter->isFloatTy() || parameter->isDoubleTy()) &&
        prototype.floatBits.size() == MaxFloatArguments)
      continue;
    if (parameter->isIntegerTy())
      prototype.integerBits.push_back(std::min(64u, parameter->getIntegerBitWidth()));
    else if (parameter->isPointerTy())
      prototype.integerBits.push_back(64);
    else if (parameter->isFloatTy() || parameter->isDoubleTy())
      prototype.floatBits.push_back(parameter->getPrimitiveSizeInBits());
  }
  llvm::Type *result = declaration.getReturnType();
  if (result->isIntegerTy()) {
    prototype.result = ImportPrototype::Result::Integer;
    prototype.resultBits = std::min(64u, result->getIntegerBitWidth());
  } else if (result->isPointerTy()) {
    prototype.result = ImportPrototype::Result::Pointer;
  } else if (result->isFloatTy()) {
    prototype.result = ImportPrototype::Result::Float;
  } else if (result->isDoubleTy()) {
    prototype.result = ImportPrototype::Result::Double;
  }
  return prototype;
}

/// A body that ends the trial: `end` for Hoist's intrinsics and what the check cannot run.
void defineEnding(llvm::Function &function, IntrinsicEnd end) {
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(function.getContext(), "entry", &function));
  builder.CreateCall(endCallback(*function.getParent()), {builder.getInt64(uint64_t(end))});
  builder.CreateUnreachable();
}

IntrinsicEnd endOfIntrinsic(llvm::StringRef name) {
  if (name == "__hoist_trap")
    return IntrinsicEnd::Fault;
  if (name == "__hoist_jmp")
    return IntrinsicEnd::UnresolvedJump;
  return IntrinsicEnd::NoVerdict;
}

/// The body of a brightened module's import: records its arguments (integers, then floats as
/// their bits) and returns what the callback answers, in the declared type.
void defineBrightenedImport(llvm::Function &function, unsigned id) {
  llvm::LLVMContext &context = function.getContext();
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
  auto *i64 = builder.getInt64Ty();
  unsigned count = unsigned(function.arg_size());
  llvm::Value *slots = builder.CreateAlloca(i64, builder.getInt32(std::max(count, 1u)));
  unsigned slot = 0, integers = 0, floats = 0;
  auto store = [&](llvm::Value *value) {
    builder.CreateStore(value, builder.CreateConstGEP1_32(i64, slots, slot++));
  };
  // As prototypeOf counts them: the first MaxIntegerArguments, then MaxFloatArguments.
  for (llvm::Argument &argument : function.args()) {
    llvm::Type *type = argument.getType();
    if (!type->isPointerTy() && !type->isIntegerTy())
      continue;
    if (integers++ == MaxIntegerArguments)
      break;
    store(type->isPointerTy() ? builder.CreatePtrToInt(&argument, i64)
                              : builder.CreateZExtOrTrunc(&argument, i64));
  }
  for (llvm::Argument &argument : function.args()) {
    llvm::Type *type = argument.getType();
    if (!type->isFloatTy() && !type->isDoubleTy())
      continue;
    if (floats++ == MaxFloatArguments)
      break;
    store(type->isFloatTy()
              ? builder.CreateZExt(builder.CreateBitCast(&argument, builder.getInt32Ty()), i64)
              : builder.CreateBitCast(&argument, i64));
  }
  llvm::Value *answer = builder.CreateCall(brightenedImportCallback(*function.getParent()),
                                           {builder.getInt64(id), slots});
  llvm::Type *result = function.getReturnType();
  if (result->isVoidTy())
    builder.CreateRetVoid();
  else if (result->isPointerTy())
    builder.CreateRet(builder.CreateIntToPtr(answer, result));
  else if (result->isIntegerTy())
    builder.CreateRet(builder.CreateZExtOrTrunc(answer, result));
  else if (result->isFloatTy())
    builder.CreateRet(
        builder.CreateBitCast(builder.CreateTrunc(answer, builder.getInt32Ty()), result));
  else if (result->isDoubleTy())
    builder.CreateRet(builder.CreateBitCast(answer, result));
  else
    builder.CreateRet(llvm::Constant::getNullValue(result)); // not compared: no verdict
}

/// The body of a function lifted code declares: an import `import.<name>(%state, %mem)` hands
/// State to the callback, which reads the arguments by the import's prototype (six integers
/// and an integer result until the brightened module declares it); anything else is one of
/// Hoist's intrinsics, or what the check does not know, and ends the trial.
void defineLiftedDeclaration(llvm::Function &function, ImportTable &imports) {
  llvm::StringRef name = function.getName();
  if (!name.starts_with("import.") || function.arg_size() != 2) {
    defineEnding(function, endOfIntrinsic(name));
    return;
  }
  ImportPrototype prototype;
  prototype.name = name.drop_front(7).str();
  prototype.integerBits.assign(6, 64);
  prototype.result = ImportPrototype::Result::Integer;
  prototype.performs = performsOperation(prototype.name);
  unsigned id = imports.idOf(prototype.name, prototype);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(function.getContext(), "entry", &function));
  builder.CreateCall(liftedImportCallback(*function.getParent()),
                     {function.getArg(0), function.getArg(1), builder.getInt64(id)});
  builder.CreateRetVoid();
}

void defineDeclaredGlobals(llvm::Module &module, const std::set<std::string> &shared = {}) {
  for (llvm::GlobalVariable &global : module.globals())
    if (global.isDeclaration() && !shared.count(global.getName().str())) {
      global.setInitializer(llvm::Constant::getNullValue(global.getValueType()));
      global.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

} // namespace

unsigned ImportTable::idOf(const std::string &name, const ImportPrototype &prototype) {
  auto [found, added] = idByName.try_emplace(name, unsigned(imports.size()));
  if (added)
    imports.push_back(prototype);
  return found->second;
}

void addBrightenedStubs(llvm::Module &brightened, ImportTable &imports,
                        const std::set<std::string> &shared) {
  std::vector<llvm::Function *> declarations;
  for (llvm::Function &function : brightened)
    if (function.isDeclaration() && !function.isIntrinsic() && !isCallback(function))
      declarations.push_back(&function);
  for (llvm::Function *function : declarations) {
    llvm::StringRef name = function->getName();
    if (name.starts_with("__hoist_") || name.starts_with("import.")) {
      // Lifted code a declined function keeps: the same as in the lifted module.
      defineLiftedDeclaration(*function, imports);
      continue;
    }
    ImportPrototype prototype = prototypeOf(*function);
    // The brightened module's declaration is the import's prototype, whichever module named
    // the import first.
    unsigned id = imports.idOf(prototype.name, prototype);
    imports.imports[id] = prototype;
    defineBrightenedImport(*function, id);
    function->setLinkage(llvm::GlobalValue::ExternalLinkage);
  }
  defineDeclaredGlobals(brightened, shared);
  // The names of the image's objects inside the carried globals are aliases whose symbol
  // size is the whole global's, which the JIT's linker refuses; nothing the check runs needs
  // the names.
  std::vector<llvm::GlobalAlias *> aliases;
  for (llvm::GlobalAlias &alias : brightened.aliases())
    aliases.push_back(&alias);
  for (llvm::GlobalAlias *alias : aliases) {
    alias->replaceAllUsesWith(alias->getAliasee());
    alias->eraseFromParent();
  }
}

void addLiftedStubs(llvm::Module &lifted, ImportTable &imports) {
  std::vector<llvm::Function *> declarations;
  for (llvm::Function &function : lifted)
    if (function.isDeclaration() && !function.isIntrinsic() && !isCallback(function))
      declarations.push_back(&function);
  for (llvm::Function *function : declarations)
    defineLiftedDeclaration(*function, imports);
  defineDeclaredGlobals(lifted);
}

void addCallThunk(llvm::Function &function, llvm::StringRef thunk) {
  llvm::Module &module = *function.getParent();
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr}, false);
  auto *caller = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, thunk, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", caller));
  std::vector<llvm::Value *> arguments;
  for (auto [index, parameter] : llvm::enumerate(function.getFunctionType()->params())) {
    llvm::Value *slot =
        builder.CreateConstGEP1_64(builder.getInt8Ty(), caller->getArg(0), 16 * index);
    // Byte-aligned: the check's buffers promise no more (a vector's load must not be movdqa).
    arguments.push_back(builder.CreateAlignedLoad(parameter, slot, llvm::Align(1)));
  }
  llvm::CallInst *call = builder.CreateCall(function.getFunctionType(), &function, arguments);
  call->setCallingConv(function.getCallingConv());
  llvm::Type *result = function.getReturnType();
  if (auto *record = llvm::dyn_cast<llvm::StructType>(result)) {
    for (unsigned index = 0; index < record->getNumElements(); ++index)
      builder.CreateAlignedStore(
          builder.CreateExtractValue(call, index),
          builder.CreateConstGEP1_64(builder.getInt8Ty(), caller->getArg(1), 16 * index),
          llvm::Align(1));
  } else if (!result->isVoidTy()) {
    builder.CreateAlignedStore(call, caller->getArg(1), llvm::Align(1));
  }
  builder.CreateRetVoid();
}

void addEntryThunk(llvm::Function &function, llvm::StringRef entry) {
  llvm::Module &module = *function.getParent();
  auto *caller = llvm::Function::Create(function.getFunctionType(),
                                        llvm::GlobalValue::ExternalLinkage, entry, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(module.getContext(), "entry", caller));
  std::vector<llvm::Value *> arguments;
  for (llvm::Argument &argument : caller->args())
    arguments.push_back(&argument);
  builder.CreateCall(function.getFunctionType(), &function, arguments);
  builder.CreateRetVoid();
}

std::vector<std::string> addCarriedSectionTable(llvm::Module &module, llvm::StringRef table) {
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *entry = llvm::StructType::get(context, {ptr, i64});
  std::vector<llvm::Constant *> entries;
  std::vector<std::string> names;
  const llvm::DataLayout &layout = module.getDataLayout();
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!global.getName().starts_with("image.") || global.isDeclaration())
      continue;
    names.push_back(global.getName().drop_front(5).str());
    entries.push_back(llvm::ConstantStruct::get(
        entry,
        {&global, llvm::ConstantInt::get(i64, layout.getTypeAllocSize(global.getValueType()))}));
  }
  auto *arrayType = llvm::ArrayType::get(entry, entries.size());
  new llvm::GlobalVariable(module, arrayType, true, llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantArray::get(arrayType, entries), table);
  return names;
}

} // namespace hoist::check
