#include "Commands.h"

#include "Discover/MainFunction.h"

#include "Support/Error.h"

#include <llvm/Support/WithColor.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist {

llvm::Expected<std::unique_ptr<Image>> loadInput(const InputOptions &input) {
  if (input.rawBase)
    return Image::loadRaw(input.path, *input.rawBase);
  return Image::load(input.path);
}

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

llvm::Expected<uint64_t> defaultFunction(const Image &image, bool quiet) {
  InstructionCache cache(image);
  std::optional<MainFunction> main = findMainFunction(image, cache);
  uint64_t address = main ? main->address : image.entryPoint();
  if (!image.isExecutable(address))
    return makeError("{0}: no main and no executable entry point; use --function or --all",
                     image.path());
  // A symbol named main needs no word; anything else is a choice the user should see.
  if (!quiet && (!main || main->how != "the symbol main"))
    llvm::errs() << "hoist: note: no --function given: "
                 << (main ? "main at " + formatAddress(address) + ", " + main->how
                          : "the entry point " + formatAddress(address) +
                                " (no symbol main, and no call of __libc_start_main shows it)")
                 << "\n";
  return address;
}

int reportFailure(llvm::Error error) {
  llvm::errs() << "hoist: error: " << llvm::toString(std::move(error)) << "\n";
  return 1;
}

} // namespace hoist
