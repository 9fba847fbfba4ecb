#include "Brighten/ImportEffects.h"

#include "Prototypes/LibraryPrototype.h"

namespace hoist {

std::optional<ImportEffects> importEffects(llvm::StringRef name, llvm::StringRef library) {
  // The writes the headers give, when they are all the function writes (KnownWrites: glibc's
  // access attributes and const parameters, the Windows SDK's SAL annotations).
  const LibraryPrototype *prototype = findImportPrototype(name, library);
  if (!prototype || !prototype->isFunction() || !prototype->hasKnownWrites())
    return std::nullopt;
  ImportEffects effects{static_cast<unsigned>(prototype->parameters().size()), {}};
  for (const ParameterWrite &write : prototype->writes())
    effects.writes.push_back({write.parameter, write.bytes, write.sizeParameter});
  return effects;
}

} // namespace hoist
