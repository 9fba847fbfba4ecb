#include "Brighten/Initializers.h"

#include "Discover/FunctionStarts.h"
#include "hoist/Lifter.h"

#include <llvm/ADT/StringSet.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <map>

namespace hoist {
namespace {

constexpr unsigned DefaultPriority = 65535; // what a plain __attribute__((constructor)) gets

/// The start files' own entries, which the recompiled program's start files replace.
bool isStartFileCode(const Image &image, uint64_t address) {
  std::optional<std::string> name = image.nameAt(address);
  return name && (*name == "frame_dummy" || *name == "__do_global_dtors_aux");
}

} // namespace

void carryInitializers(llvm::Module &module, const Image &image,
                       const std::vector<std::string> &brightened, DiagnosticSink &diagnostics) {
  llvm::StringSet<> isBrightened;
  for (const std::string &name : brightened)
    isBrightened.insert(name);
  std::map<uint64_t, llvm::Function *> brightenedAt;
  for (llvm::Function &function : module)
    if (std::optional<uint64_t> entry = entryAddressOf(function);
        entry && !function.isDeclaration() && isBrightened.contains(function.getName()))
      brightenedAt[*entry] = &function;

  for (const Section &section : image.sections()) {
    bool constructors = section.name == ".init_array";
    if (!section.mapped || (!constructors && section.name != ".fini_array"))
      continue;
    for (uint64_t pointer : initializerArrayEntries(image, section)) {
      if (isStartFileCode(image, pointer))
        continue;
      auto found = brightenedAt.find(pointer);
      if (found == brightenedAt.end()) {
        diagnostics.warning(
            "brighten-initializer-lifted", pointer,
            llvm::formatv("{0} names {1} at {2:x}, which is not brightened: a binary recompiled "
                          "from this module would not run it",
                          section.name, liftedFunctionName(image, pointer), pointer)
                .str());
        continue;
      }
      if (constructors)
        llvm::appendToGlobalCtors(module, found->second, DefaultPriority);
      else
        llvm::appendToGlobalDtors(module, found->second, DefaultPriority);
    }
  }
}

} // namespace hoist
