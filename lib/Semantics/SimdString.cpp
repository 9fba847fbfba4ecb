#include "Semantics/Semantics.h"

namespace hoist {

void registerSimdString(SemanticTable &table) { (void)table; }

} // namespace hoist
