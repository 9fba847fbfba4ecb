#include "Support/Error.h"

#include <llvm/Support/Format.h>

namespace hoist {

std::string formatAddress(uint64_t address) {
  return llvm::formatv("{0:x}", address).str();
}

} // namespace hoist
