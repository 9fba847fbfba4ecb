#include "RecognizedFunctions.h"

#include "Lift/CallTargets.h"
#include "Prototypes/LibraryPrototype.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>

namespace hoist {

std::map<uint64_t, Recognition>
recognizeProgram(const Image &image, const std::map<uint64_t, DiscoveredFunction> &functions) {
  if (image.format() != ImageFormat::Elf)
    return {};
  std::vector<uint64_t> entries;
  entries.reserve(functions.size());
  for (const auto &[entry, function] : functions)
    entries.push_back(entry);
  return recognizeFunctions(image, SignatureDatabase::builtIn(), entries);
}

std::string recognizedLabel(const Recognition &recognition) {
  if (!recognition.name.empty())
    return recognition.name;
  return "?" + llvm::join(recognition.candidates, "|");
}

std::vector<Import> callableByName(const std::map<uint64_t, Recognition> &recognized) {
  std::vector<Import> callable;
  for (const auto &[entry, recognition] : recognized) {
    if (recognition.name.empty() || recognition.indirect || recognition.localOnly ||
        !findLibraryPrototype(recognition.name))
      continue;
    Import import;
    import.name = recognition.name;
    import.stubAddress = entry;
    import.recognizedFrom = recognition.library;
    callable.push_back(std::move(import));
  }
  return callable;
}

void markRecognized(llvm::Module &module, const std::map<uint64_t, Recognition> &recognized) {
  for (llvm::Function &function : module) {
    std::optional<uint64_t> entry = liftedFunctionEntry(function.getName());
    auto found = entry ? recognized.find(*entry) : recognized.end();
    if (found == recognized.end() || found->second.name.empty())
      continue;
    function.addFnAttr("hoist-recognized", found->second.library);
    function.addFnAttr("hoist-recognized-name", found->second.name);
  }
}

} // namespace hoist
