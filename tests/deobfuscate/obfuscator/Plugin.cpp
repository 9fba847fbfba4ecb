// The plugin's entry: `clang-19 -fpass-plugin=HoistObfuscator.so` runs the obfuscator on every
// function marked __attribute__((annotate("hoist_obfuscate"))) or named in a list, after the
// optimizer (at every level, -O0 included), so that the protection reaches the machine code.
//   HOIST_OBFUSCATE_FUNCTIONS=f,g                  also these functions ("*": every definition)
//   HOIST_OBFUSCATE=substitute,mba,bogus,flatten   the transformations (default: all four)
//   HOIST_OBFUSCATE_SEED=N                         the seed (default 1), mixed with each name
// They run in that order: arithmetic first, then bogus blocks, then flattening of them all.
#include "Obfuscator.h"

#include <llvm/ADT/StringSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Support/xxhash.h>

#include <cstdlib>
#include <set>

namespace obfuscator {
namespace {

constexpr const char *Marker = "hoist_obfuscate";

std::set<llvm::Function *> markedFunctions(llvm::Module &module) {
  std::set<llvm::Function *> marked;
  llvm::GlobalVariable *annotations = module.getNamedGlobal("llvm.global.annotations");
  if (!annotations || !annotations->hasInitializer())
    return marked;
  auto *array = llvm::dyn_cast<llvm::ConstantArray>(annotations->getInitializer());
  if (!array)
    return marked;
  for (llvm::Value *element : array->operands()) {
    auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(element);
    if (!entry || entry->getNumOperands() < 2)
      continue;
    auto *function = llvm::dyn_cast<llvm::Function>(entry->getOperand(0)->stripPointerCasts());
    auto *text = llvm::dyn_cast<llvm::GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    if (!function || !text || !text->hasInitializer())
      continue;
    auto *string = llvm::dyn_cast<llvm::ConstantDataArray>(text->getInitializer());
    if (string && string->isCString() && string->getAsCString() == Marker)
      marked.insert(function);
  }
  return marked;
}

struct Selection {
  bool substitute = true, mba = true, bogus = true, flatten = true;
  uint64_t seed = 1;
  llvm::StringSet<> functions;   ///< by name, beside the annotated ones; "*" for all
};

llvm::StringSet<> commaList(llvm::StringRef list) {
  llvm::SmallVector<llvm::StringRef, 8> names;
  list.split(names, ',', -1, false);
  llvm::StringSet<> set;
  for (llvm::StringRef name : names)
    set.insert(name.trim());
  return set;
}

Selection selectionFromEnvironment() {
  Selection selection;
  if (const char *list = std::getenv("HOIST_OBFUSCATE")) {
    llvm::StringSet<> chosen = commaList(list);
    selection.substitute = chosen.contains("substitute");
    selection.mba = chosen.contains("mba");
    selection.bogus = chosen.contains("bogus");
    selection.flatten = chosen.contains("flatten");
  }
  if (const char *names = std::getenv("HOIST_OBFUSCATE_FUNCTIONS"))
    selection.functions = commaList(names);
  if (const char *seed = std::getenv("HOIST_OBFUSCATE_SEED"))
    selection.seed = std::strtoull(seed, nullptr, 0);
  return selection;
}

class ObfuscatePass : public llvm::PassInfoMixin<ObfuscatePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
    Selection selection = selectionFromEnvironment();
    bool changed = false;
    std::set<llvm::Function *> chosen = markedFunctions(module);
    for (llvm::Function &function : module)
      if (selection.functions.contains("*") || selection.functions.contains(function.getName()))
        chosen.insert(&function);
    for (llvm::Function *function : chosen) {
      if (function->isDeclaration())
        continue;
      Random random(selection.seed ^ llvm::xxh3_64bits(function->getName()));
      if (selection.substitute)
        changed |= substituteInstructions(*function, random);
      if (selection.mba)
        changed |= encodeMba(*function, random);
      if (selection.bogus)
        changed |= addBogusControlFlow(*function, random);
      if (selection.flatten)
        changed |= flattenControlFlow(*function, random);
    }
    return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
  /// Runs on optnone (-O0) functions too.
  static bool isRequired() { return true; }
};

} // namespace
} // namespace obfuscator

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "HoistObfuscator", "1", [](llvm::PassBuilder &builder) {
            builder.registerOptimizerLastEPCallback(
                [](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
                  passes.addPass(obfuscator::ObfuscatePass());
                });
          }};
}
