#include "Semantics/Semantics.h"

namespace hoist {

void registerX87(SemanticTable &table) { (void)table; }

} // namespace hoist
