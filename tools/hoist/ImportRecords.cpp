#include "ImportRecords.h"

#include "Brighten/InferredImports.h"
#include "Prototypes/LibraryPrototype.h"

#include <set>
#include <string>

namespace hoist {

llvm::json::Array importRecords(const Image &image, const llvm::Module *module) {
  std::set<std::string> inferred;
  if (module)
    for (const llvm::Function &function : *module)
      if (function.hasFnAttribute(InferredPrototypeAttribute))
        inferred.insert(function.getFnAttribute("hoist-import").getValueAsString().str());
  llvm::json::Array records;
  for (const Import &import : image.imports()) {
    const char *source = import.definedAt                   ? "definition"
                         : findImportPrototype(import.name, import.library) ? "header"
                         : inferred.count(import.name)      ? "inferred"
                                                            : "none";
    llvm::json::Object record{{"name", import.name}, {"prototype", source}};
    if (!import.library.empty())
      record["library"] = import.library;
    records.push_back(std::move(record));
  }
  return records;
}

} // namespace hoist
