#include "Commands.h"

#include <llvm/Support/WithColor.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist {

llvm::Expected<std::unique_ptr<Image>> loadInput(const InputOptions &input) {
  if (input.rawBase)
    return Image::loadRaw(input.path, *input.rawBase);
  return Image::load(input.path);
}

int reportFailure(llvm::Error error) {
  llvm::errs() << "hoist: error: " << llvm::toString(std::move(error)) << "\n";
  return 1;
}

} // namespace hoist
