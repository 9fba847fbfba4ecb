#include "hoist/Version.h"

#include <Zydis/Zydis.h>
#include <llvm/Config/llvm-config.h>

namespace hoist {

std::string llvmVersion() { return LLVM_VERSION_STRING; }

std::string zydisVersion() {
  const ZyanU64 version = ZydisGetVersion();
  return std::to_string(ZYDIS_VERSION_MAJOR(version)) + "." +
         std::to_string(ZYDIS_VERSION_MINOR(version)) + "." +
         std::to_string(ZYDIS_VERSION_PATCH(version));
}

} // namespace hoist
