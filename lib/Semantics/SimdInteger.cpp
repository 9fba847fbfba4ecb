#include "Semantics/Semantics.h"

namespace hoist {

void registerSimdInteger(SemanticTable &table) { (void)table; }

} // namespace hoist
