#include "Semantics/Semantics.h"

namespace hoist {

void registerSimdConvert(SemanticTable &table) { (void)table; }

} // namespace hoist
