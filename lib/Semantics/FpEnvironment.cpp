#include "Semantics/Semantics.h"

namespace hoist {

void registerFpEnvironment(SemanticTable &table) { (void)table; }

} // namespace hoist
