#include "Commands.h"

#include "hoist/Program.h"

#include <llvm/Support/WithColor.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist {

llvm::Expected<std::unique_ptr<Image>> loadInput(const InputOptions &input) {
  if (input.rawBase)
    return Image::loadRaw(input.path, *input.rawBase);
  return Image::load(input.path);
}

uint64_t takeDefaultFunction(const Image &image) {
  DefaultFunction taken = defaultFunction(image);
  if (!taken.bySymbol && image.isExecutable(taken.address))
    llvm::errs() << "hoist: note: no --function given: " << taken.how << "\n";
  return taken.address;
}

int reportFailure(llvm::Error error) {
  llvm::errs() << "hoist: error: " << llvm::toString(std::move(error)) << "\n";
  return 1;
}

} // namespace hoist
