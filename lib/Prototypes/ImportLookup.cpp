#include "Prototypes/ImportLookup.h"

namespace hoist {

const LibraryPrototype *findImportPrototype(const Image &image, const Import &import) {
  if (image.format() != ImageFormat::Elf)
    return nullptr;
  return findLibraryPrototype(import.name);
}

} // namespace hoist
