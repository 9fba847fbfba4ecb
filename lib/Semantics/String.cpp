// Semantics of string instructions with rep prefixes (Zydis category STRINGOP).
#include "Semantics/Semantics.h"

namespace hoist {

void registerString(SemanticTable &table) {}

} // namespace hoist
