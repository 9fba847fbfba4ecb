// Which prototype an import of a binary has: the one place that decides, from the binary's
// format and the import's name (and for PE its DLL), which table an import is looked up in.
#pragma once

#include "Prototypes/LibraryPrototype.h"
#include "hoist/Image.h"

namespace hoist {

/// The prototype the system headers declare for `import` of `image`, or null when none does
/// (the import's prototype is then inferred from its calls, or unknown). An ELF import is
/// looked up in the C library table by symbol name (its version ignored). A PE import has
/// none yet: the table does not read the Windows headers.
const LibraryPrototype *findImportPrototype(const Image &image, const Import &import);

} // namespace hoist
