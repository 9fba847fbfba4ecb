// The preparation `hoist lift` and `hoist report` share (PreparedLift.h).
#include "PreparedLift.h"

#include "EntryChecks.h"
#include "IfuncResolution.h"

#include "Support/Error.h"
#include "hoist/Program.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <set>

namespace hoist {
namespace {

/// The functions to lift: those named on the command line, else main (defaultFunction), else
/// the entry point (with --all, the named ones come first; discovery adds the rest).
llvm::Expected<std::vector<uint64_t>> selectFunctions(const Image &image,
                                                      const std::vector<std::string> &specs,
                                                      bool all) {
  llvm::Expected<std::vector<uint64_t>> addresses = resolveFunctions(image, specs);
  if (!addresses)
    return addresses.takeError();
  if (addresses->empty() && !all)
    addresses->push_back(takeDefaultFunction(image));   // found once, and said so
  return requestedFunctions(image, *addresses, all);
}

/// A function named by an IFUNC symbol (strlen in the C library) is at its resolver's address,
/// which is not the function the user asked for: lift the implementation this host's dynamic
/// linker chose when that is known without running the input (IfuncResolution.h), and say
/// so; otherwise lift the resolver, and say that. `addresses` holds one address per spec.
void followIfuncs(const Image &image, const std::vector<std::string> &specs,
                  std::vector<uint64_t> &addresses, DiagnosticSink &diagnostics) {
  for (size_t i = 0; i < specs.size() && i < addresses.size(); ++i) {
    const Symbol *ifunc = image.indirectFunctionAt(addresses[i]);
    if (!ifunc)
      continue;
    uint64_t resolver = addresses[i];
    bool byName = !llvm::StringRef(specs[i]).starts_with_insensitive("0x");
    std::optional<uint64_t> implementation =
        byName ? hostIfuncImplementation(image, *ifunc) : std::nullopt;
    if (implementation) {
      addresses[i] = *implementation;
      diagnostics.report(
          Severity::Note, "ifunc-implementation", resolver,
          llvm::formatv("{0} is an IFUNC whose resolver is at {1}: lifted the implementation "
                        "this host's dynamic linker chose, at {2} (another CPU may get "
                        "another; --function {1} lifts the resolver)",
                        ifunc->name, formatAddress(resolver), formatAddress(*implementation))
              .str());
    } else {
      diagnostics.warning(
          "ifunc-resolver", resolver,
          llvm::formatv("{0} is an IFUNC: {1} is its resolver, which chooses the "
                        "implementation when the program is loaded; the resolver is what is "
                        "lifted{2}",
                        ifunc->name, formatAddress(resolver),
                        byName ? " (this host has not loaded the file, so which "
                                 "implementation it returns is not known without running it)"
                               : "")
              .str());
    }
  }
}

} // namespace

llvm::Expected<PreparedLift> prepareLift(const LiftCommandOptions &options,
                                         DiagnosticSink &diagnostics, PhaseProfile &profile,
                                         Progress *progress) {
  PreparedLift prepared;
  {
    auto scope = profile.time("load");
    llvm::Expected<std::unique_ptr<Image>> loaded = loadInput(options.input);
    if (!loaded)
      return loaded.takeError();
    prepared.image = std::move(*loaded);
  }
  Image &image = *prepared.image;
  llvm::Expected<std::vector<uint64_t>> selected =
      selectFunctions(image, options.functions, options.all);
  if (!selected)
    return selected.takeError();
  prepared.selected = std::move(*selected);
  followIfuncs(image, options.functions, prepared.selected, diagnostics);
  warnMidInstructionEntries(image, options.functions, options.budgets, diagnostics);

  prepared.context = std::make_unique<llvm::LLVMContext>();
  prepared.context->setDiscardValueNames(!options.valueNames);
  prepared.lifter = std::make_unique<Lifter>(image, *prepared.context, diagnostics,
                                             liftOptionsFor(options));
  {
    auto scope = profile.time("discover");
    beginPhase(progress, "discovering");
    prepared.entries = prepared.lifter->discover(prepared.selected, options.all);
  }
  if (options.recognize) {
    auto scope = profile.time("recognize");
    prepared.recognized = recognizeProgram(image, prepared.lifter->discoveredFunctions());
    if (!options.liftRecognized) {
      // Called by name from now on, and not lifted unless asked for by name or address.
      std::vector<Import> byName = callableByName(image, prepared.recognized);
      std::set<uint64_t> outlined;
      for (const Import &function : byName)
        outlined.insert(*function.stubAddress);
      llvm::erase_if(prepared.entries, [&](uint64_t entry) {
        return outlined.count(entry) && !llvm::is_contained(prepared.selected, entry);
      });
      image.callByName(std::move(byName));
    }
  }
  return std::move(prepared);
}

} // namespace hoist
