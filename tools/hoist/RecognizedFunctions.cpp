#include "RecognizedFunctions.h"

#include "Discover/FunctionStarts.h"
#include "Lift/CallTargets.h"
#include "Support/Diagnostics.h"
#include "Prototypes/LibraryPrototype.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <set>

namespace hoist {

std::map<uint64_t, Recognition>
recognizeProgram(const Image &image, const std::map<uint64_t, DiscoveredFunction> &functions) {
  if (image.format() != ImageFormat::Elf)
    return {};
  // Beyond what discovery explored (with --function, the named function alone): every start
  // the image records (.eh_frame covers nearly all of a static C library) and every direct
  // callee, so that lifting on demand finds the callees recognized and their references
  // have something to be checked against.
  JumpTargetRegistry registry;
  DiagnosticSink ignored;   // a malformed table is discovery's to report
  std::set<uint64_t> continuingFrames;   // parts of functions are discovery's to tell
  registerFunctionStarts(image, registry, continuingFrames, ignored);
  std::set<uint64_t> starts = registry.functionStarts();
  for (const auto &[entry, function] : functions) {
    starts.insert(entry);
    for (const CallSite &call : function.calls)
      if (call.target && call.import.empty())
        starts.insert(*call.target);
    starts.insert(function.tailCalls.begin(), function.tailCalls.end());
  }
  std::vector<uint64_t> entries(starts.begin(), starts.end());
  return recognizeFunctions(image, SignatureDatabase::builtIn(), entries);
}

std::string recognizedLabel(const Recognition &recognition) {
  if (!recognition.name.empty())
    return recognition.name;
  // Equal `.cold` parts collide by the dozen: the first few say what the set is.
  constexpr size_t Shown = 4;
  const std::vector<std::string> &candidates = recognition.candidates;
  if (candidates.size() <= Shown)
    return "?" + llvm::join(candidates, "|");
  return "?" + llvm::join(candidates.begin(), candidates.begin() + Shown, "|") + "|... (" +
         std::to_string(candidates.size()) + " names)";
}

std::vector<Import> callableByName(const Image &image,
                                   const std::map<uint64_t, Recognition> &recognized) {
  std::vector<Import> callable;
  // A program that imports anything, or a library (libm.so.6 matches its own libm.a), keeps
  // its own code: it is not the statically linked program this is for.
  if (image.format() != ImageFormat::Elf || image.isLibrary() || !image.imports().empty())
    return callable;
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
    std::optional<uint64_t> entry = entryAddressOf(function);
    auto found = entry ? recognized.find(*entry) : recognized.end();
    if (found == recognized.end() || found->second.name.empty())
      continue;
    function.addFnAttr("hoist-recognized", found->second.library);
    function.addFnAttr("hoist-recognized-name", found->second.name);
  }
}

} // namespace hoist
