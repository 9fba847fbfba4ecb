// liftProgram and the choice of functions it shares with `hoist lift` and `hoist cfg`.
#include "hoist/Program.h"

#include "Api/LiftPipeline.h"
#include "Discover/MainFunction.h"
#include "Support/Error.h"

namespace hoist {

llvm::Expected<uint64_t> resolveFunction(const Image &image, llvm::StringRef spec) {
  uint64_t address = 0;
  if (spec.starts_with_insensitive("0x")) {
    if (spec.getAsInteger(0, address))
      return makeError("{0}: '{1}' is not a valid address", image.path(), spec);
    return address;
  }
  if (std::optional<uint64_t> symbol = image.lookupSymbol(spec))
    return *symbol;
  return makeError("{0}: no function named '{1}'", image.path(), spec);
}

llvm::Expected<std::vector<uint64_t>> resolveFunctions(const Image &image,
                                                       const std::vector<std::string> &specs) {
  std::vector<uint64_t> addresses;
  for (const std::string &spec : specs) {
    llvm::Expected<uint64_t> address = resolveFunction(image, spec);
    if (!address)
      return address.takeError();
    addresses.push_back(*address);
  }
  return addresses;
}

DefaultFunction defaultFunction(const Image &image) {
  InstructionCache cache(image);
  if (std::optional<MainFunction> main = findMainFunction(image, cache)) {
    std::string how = "main at " + formatAddress(main->address) + ", " + main->how;
    // Named so that whole-program brightening can tell the start files' code from the
    // program's (scripts/brighten-program.sh): the recompiled program brings its own.
    if (main->startFilesInit)
      how += "; the start files' init at " + formatAddress(*main->startFilesInit);
    if (main->startFilesFini)
      how += "; the start files' fini at " + formatAddress(*main->startFilesFini);
    return {main->address, main->bySymbol, how};
  }
  return {image.entryPoint(), false,
          "the entry point " + formatAddress(image.entryPoint()) +
              " (no symbol main, and no call of __libc_start_main shows it)"};
}

llvm::Expected<std::vector<uint64_t>> requestedFunctions(const Image &image,
                                                         const std::vector<uint64_t> &functions,
                                                         bool all) {
  std::vector<uint64_t> addresses = functions;
  if (addresses.empty() && !all)
    addresses.push_back(defaultFunction(image).address);
  for (uint64_t address : addresses)
    if (!image.isExecutable(address))
      return makeError("{0}: address {1} is not in an executable section", image.path(),
                       formatAddress(address));
  return addresses;
}

llvm::Expected<LiftedProgram> liftProgram(const Image &image, llvm::LLVMContext &context,
                                          const LiftRequest &request,
                                          DiagnosticSink &diagnostics) {
  llvm::Expected<std::vector<uint64_t>> named =
      requestedFunctions(image, request.functions, request.all);
  if (!named)
    return named.takeError();
  LiftSteps steps{.all = request.all, .callees = request.callees, .optLevel = request.optLevel};
  switch (request.brighten) {
  case Brightening::None:
    break;
  case Brightening::FromFormat:
    steps.brighten = defaultCallingConvention(image.format());
    break;
  case Brightening::SysV:
    steps.brighten = CallingConvention::SysV;
    break;
  case Brightening::Win64:
    steps.brighten = CallingConvention::Win64;
    break;
  }
  if (request.deobfuscate) {
    steps.concolic = DeobfuscateOptions{};
    steps.deobfuscationPasses = true;
  }
  steps.roundPasses = request.roundPasses;
  // Brightening and deobfuscation read the instruction addresses as `!hoist.pc`.
  LiftOptions liftOptions = request.lift;
  liftOptions.pcMetadata |= steps.brighten.has_value() || request.deobfuscate;
  Lifter lifter(image, context, diagnostics, liftOptions);
  std::vector<uint64_t> entries = lifter.discover(*named, request.all);
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      liftDiscovered(image, lifter, *named, entries, steps, diagnostics);
  if (!module)
    return module.takeError();
  return LiftedProgram{std::move(*module), lifter.stats()};
}

} // namespace hoist
