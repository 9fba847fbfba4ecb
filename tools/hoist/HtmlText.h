// Text inside HTML (and Graphviz's HTML-like labels): the characters HTML gives a meaning
// escaped.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace hoist {

/// `&`, `<`, `>` and `"` as entities: safe in element content and in double-quoted attributes.
std::string htmlEscaped(llvm::StringRef text);

} // namespace hoist
