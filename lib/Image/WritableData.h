// Which image memory the program may change once it runs (beyond the loader's relocation).
#pragma once

#include "hoist/ImageTypes.h"

#include <string_view>

namespace hoist {

/// Whether the program may change `section`'s bytes: mapped, writable, and not
/// `.data.rel.ro`, which the loader makes read-only once it has relocated it (RELRO).
inline bool writableAtRunTime(const Section &section) {
  return section.mapped && section.writable &&
         !std::string_view(section.name).starts_with(".data.rel.ro");
}

} // namespace hoist
