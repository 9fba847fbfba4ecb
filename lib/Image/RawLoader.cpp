// Raw code: the whole file is one readable, executable section at a base the user names.
#include "Image/Loaders.h"
#include "Support/Error.h"

#include <limits>

namespace hoist {

llvm::Error loadRawBytes(Image::Builder &builder, uint64_t base) {
  uint64_t size = builder.fileBytes().size();
  if (size > std::numeric_limits<uint64_t>::max() - base)
    return makeError("{0} bytes at base {1} run past the end of the address space", size, formatAddress(base));
  builder.setImageBase(base);
  builder.setEntryPoint(base);
  Section raw;
  raw.name = ".raw";
  raw.address = base;
  raw.size = size;
  raw.fileOffset = 0;
  raw.fileSize = size;
  raw.readable = true;
  raw.executable = true;
  return builder.addSection(std::move(raw));
}

} // namespace hoist
