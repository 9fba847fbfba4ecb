#include "RecognizedFunctions.h"

#include "Lift/CallTargets.h"
#include "Prototypes/LibraryPrototype.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>

namespace hoist {

namespace {

/// Where the function's code that starts at its entry ends: the blocks that follow each other
/// from the entry, with room for alignment padding between them. A part the compiler moved
/// away (`foo.cold`) is not counted: the library's symbol does not cover it either.
uint64_t contiguousEnd(const ExploredFunction &function) {
  constexpr uint64_t PaddingAllowed = 16;
  uint64_t end = function.entry;
  for (auto it = function.blocks.lower_bound(function.entry); it != function.blocks.end(); ++it) {
    if (it->first > end + PaddingAllowed)
      break;
    end = std::max(end, it->second.endAddress);
  }
  return end;
}

} // namespace

std::map<uint64_t, Recognition>
recognizeProgram(const Image &image, const std::map<uint64_t, DiscoveredFunction> &functions) {
  if (image.format() != ImageFormat::Elf)
    return {};
  std::vector<DiscoveredExtent> extents;
  extents.reserve(functions.size());
  for (const auto &[entry, function] : functions)
    extents.push_back({entry, contiguousEnd(function.explored)});
  return recognizeFunctions(image, SignatureDatabase::builtIn(), extents);
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
