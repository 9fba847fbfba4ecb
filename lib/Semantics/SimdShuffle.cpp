#include "Semantics/Semantics.h"

namespace hoist {

void registerSimdShuffle(SemanticTable &table) { (void)table; }

} // namespace hoist
