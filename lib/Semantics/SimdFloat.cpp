#include "Semantics/Semantics.h"

namespace hoist {

void registerSimdFloat(SemanticTable &table) { (void)table; }

} // namespace hoist
